import subprocess, sys, os
gd, out = sys.argv[1], sys.argv[2]
ls = subprocess.run(['git','--git-dir',gd,'ls-tree','-r','-z','HEAD'],capture_output=True).stdout.split(b'\0')
ents=[]
for e in ls:
    if not e: continue
    meta, path = e.split(b'\t',1)
    mode, typ, sha = meta.split()
    if typ!=b'blob': continue
    ents.append((mode,sha,path.decode()))
p = subprocess.Popen(['git','--git-dir',gd,'cat-file','--batch'],stdin=subprocess.PIPE,stdout=subprocess.PIPE)
missing=0
for mode,sha,path in ents:
    p.stdin.write(sha+b'\n'); p.stdin.flush()
    hdr = p.stdout.readline().split()
    if hdr[1]==b'missing': missing+=1; continue
    n=int(hdr[2]); data=p.stdout.read(n); p.stdout.read(1)
    fp=os.path.join(out,path); os.makedirs(os.path.dirname(fp) or '.',exist_ok=True)
    if mode==b'120000':
        try: os.symlink(data.decode(),fp)
        except FileExistsError: pass
    else:
        open(fp,'wb').write(data)
print(gd, len(ents), 'missing', missing)

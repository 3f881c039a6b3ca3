import subprocess, sys, os, json
MIRROR={'cutlass':'/work/.mirror/NVIDIA+cutlass/repo','fmt':'/work/.mirror/fmtlib+fmt/repo'}
KEEP={'cutlass':('include/','tools/util/include/','CMakeLists.txt','python/cutlass_library/'),'fmt':None}
SRC_EXT={'.cu','.cuh','.cpp','.cc','.cxx','.c','.h','.hpp','.hh','.hxx','.inl','.inc','.py'}
rep=[]
for r in sys.argv[1:]:
    gd=[os.path.join('/work/.mirror',d,'repo') for d in os.listdir('/work/.mirror') if '+' in d and d.split('+',1)[1]==r][0]
    ls=subprocess.run(['git','--git-dir',gd,'ls-tree','-r','HEAD'],capture_output=True,text=True).stdout.splitlines()
    for l in ls:
        meta,path=l.split('\t',1); mode,typ,sha=meta.split()
        if typ!='commit': continue
        dst=os.path.join('/work/main/build-oracle/repos',r,path); os.makedirs(dst,exist_ok=True)
        key=[k for k in MIRROR if path.rstrip('/').endswith(k)]
        if not key: rep.append((r,path,sha,'empty dir')); continue
        k=key[0]; m=MIRROR[k]
        have=subprocess.run(['git','--git-dir',m,'cat-file','-e',sha+'^{commit}']).returncode==0
        c=sha if have else 'HEAD'
        files=subprocess.run(['git','--git-dir',m,'ls-tree','-r','--name-only',c],capture_output=True,text=True).stdout.splitlines()
        n=0
        for f in files:
            if KEEP[k] and not f.startswith(KEEP[k]): continue
            q=os.path.join(dst,f); os.makedirs(os.path.dirname(q),exist_ok=True)
            if os.path.splitext(f)[1] in SRC_EXT or f.endswith('.txt') is False:
                open(q,'w').close()
            else:
                open(q,'wb').write(subprocess.run(['git','--git-dir',m,'show',c+':'+f],capture_output=True).stdout)
            n+=1
        rep.append((r,path,sha,'filled from %s at %s (%d names, contents emptied)'%(k, 'pinned commit' if have else 'snapshot HEAD', n)))
json.dump(rep,open('/work/bg-repos/subfill.json','w'),indent=0)
for x in rep: print(x)

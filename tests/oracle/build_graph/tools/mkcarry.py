import os, sys, shutil
SRC_EXT={'.cu','.cuh','.cpp','.cc','.cxx','.c','.h','.hpp','.hh','.hxx','.inl','.inc','.tcc','.ptx','.cl','.metal','.comp','.glsl','.m','.mm','.s','.S','.ipp','.tpp'}
KEEP_BIG={'.py','.toml','.cfg','.txt','.cmake','.in'}
src, dst = sys.argv[1], sys.argv[2]
n=0; sz=0
for root, dirs, files in os.walk(src):
    dirs[:] = [d for d in dirs if d not in ('.git','docs','doc','tests','test','benchmarks','benchmark','examples','blogs','assets','media','.github','notebooks','tutorials','data')]
    for f in files:
        p=os.path.join(root,f); rel=os.path.relpath(p,src); q=os.path.join(dst,rel)
        ext=os.path.splitext(f)[1]
        if os.path.islink(p): continue
        s=os.path.getsize(p)
        os.makedirs(os.path.dirname(q),exist_ok=True)
        if ext in SRC_EXT or (ext=='.py' and s>48*1024 and f!='setup.py'):
            open(q,'w').close()
        elif (s<=32*1024 and ext not in ('.ipynb','.svg','.html')) or (ext in KEEP_BIG and s<=256*1024) or f in ('CMakeLists.txt','setup.py'):
            shutil.copyfile(p,q); sz+=s
        elif ext in ('.md','.rst','.yaml','.yml','.json','.txt'):
            open(q,'w').close()
        else:
            continue
        n+=1
print(src,n,sz)

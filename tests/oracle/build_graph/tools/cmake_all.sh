#!/bin/bash
# usage: cmake_all.sh name srcdir
n=$1; s=$2; b=/work/bg-repos/cm/$n
rm -rf $b; mkdir -p $b
( cd $b && timeout 400 cmake -S $s -B $b -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ) > /work/bg-repos/cm/$n.log 2>&1
echo $? > /work/bg-repos/cm/$n.rc

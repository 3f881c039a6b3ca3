import json
X = "8.0;9.0+PTX"
dirs = {
 'apex': ['.'], 'flash-attention': ['.', 'hopper'], 'xformers': ['.'], 'llm-awq': ['awq/kernels'],
 'exllamav2': ['.'], 'marlin': ['.'], 'mamba': ['.'], 'causal-conv1d': ['.'], 'gsplat': ['.'],
 'diff-gaussian-rasterization': ['.'], 'pytorch3d': ['.'], 'TransformerEngine': ['.'], 'DeepGEMM': ['.'],
 'SageAttention': ['.', 'sageattention3_blackwell'], 'DeepSpeed': ['.'], 'ao': ['.'], 'mmcv': ['.'],
 'nvdiffrast': ['.'], 'extension-cpp': ['.'], 'tiny-cuda-nn': ['bindings/torch'], 'flashinfer': ['.'],
}
extra = {
 'apex': [('readme:README.md:38', {'APEX_CPP_EXT': '1', 'APEX_CUDA_EXT': '1'}),
          ('readme:README.md:38+nogpu', {'APEX_CPP_EXT': '1', 'APEX_CUDA_EXT': '1', 'CUDA_VISIBLE_DEVICES': ''})],
 'mmcv': [('docker:docker/dev/Dockerfile:31', {'FORCE_CUDA': '1', 'TORCH_CUDA_ARCH_LIST': '', 'CUDA_VISIBLE_DEVICES': ''})],
 'gsplat': [('ci:.github/workflows/cuda/Linux-env.sh:8', {'TORCH_CUDA_ARCH_LIST': '7.5;8.0;8.6;9.0;9.0a'})],
 'DeepSpeed': [('ci:.github/workflows/nv-pre-compile-ops.yml:39', {'DS_ACCELERATOR': 'cuda', 'DS_ENABLE_NINJA': '1', 'TORCH_CUDA_ARCH_LIST': '7.0;7.5;8.0', 'DS_BUILD_OPS': '1', 'DS_BUILD_SPARSE_ATTN': '0', 'DS_BUILD_FP_QUANTIZER': '0', 'DS_BUILD_CUTLASS_OPS': '0', 'DS_BUILD_GDS': '0', 'DS_BUILD_RAGGED_DEVICE_OPS': '0', 'DS_BUILD_EVOFORMER_ATTN': '0'})],
 'nvdiffrast': [('docker:Dockerfile:20', {'TORCH_CUDA_ARCH_LIST': '8.0 8.6 8.9 9.0', 'CUDA_VISIBLE_DEVICES': ''})],
 'ao': [('ci:packaging/env_var_script_linux.sh:19', {'TORCH_CUDA_ARCH_LIST': '8.0;8.6;9.0'})],
 'xformers': [('ci:.github/workflows/wheels_build.yml:33', {'TORCH_CUDA_ARCH_LIST': '7.5 8.0+PTX'})],
 'DeepGEMM': [('ci:.github/workflows/_build.yml:172', {'TORCH_CUDA_ARCH_LIST': '7.0 7.2 7.5 8.0 8.6 8.7 9.0+PTX'})],
 'TransformerEngine': [('docker:.github/actions/build-pytorch-wheel/Dockerfile:12', {'TORCH_CUDA_ARCH_LIST': '6.0;6.1;7.0;7.5;8.0;8.6;9.0', 'NVTE_FRAMEWORK': 'pytorch'})],
}
jobs = []
for pri, (name, envf) in enumerate([('local', {}), ('local-nogpu', {'CUDA_VISIBLE_DEVICES': ''})]):
    for r, ds in dirs.items():
        for d in ds: jobs.append({'repo': r, 'dir': d, 'name': name, 'env': envf})
for r, ds in dirs.items():
    for d in ds:
        env = {'TORCH_CUDA_ARCH_LIST': X}
        if r == 'apex': env.update({'APEX_CPP_EXT': '1', 'APEX_CUDA_EXT': '1'})
        jobs.append({'repo': r, 'dir': d, 'name': 'env:TORCH_CUDA_ARCH_LIST=' + X, 'env': env})
for r, l in extra.items():
    for name, env in l:
        for d in dirs[r][:1]: jobs.append({'repo': r, 'dir': d, 'name': name, 'env': env})
for i, j in enumerate(jobs): j['id'] = 'j%03d' % i
json.dump(jobs, open('jobs.json', 'w'), indent=0)
print(len(jobs))

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="demo_ext",
    ext_modules=[
        CUDAExtension(
            "demo_ext",
            ["csrc/add.cu", "csrc/bindings.cpp"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)

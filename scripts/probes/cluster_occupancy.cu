// How many thread block clusters of s = 1..16 blocks of 34's kernel the GPU holds at once
// (cudaOccupancyMaxActiveClusters), beside the blocks it holds one by one. 34's Lesson and 35's
// dispatch rest on the difference. The outputs in results/probes/ came from:
//   nvcc -O3 -std=c++17 -Icommon/cuda -gencode=arch=compute_90a,code=sm_90a \
//        scripts/probes/cluster_occupancy.cu -o build/cluster_occupancy
//   build/cluster_occupancy > results/probes/clusters-<gpu>.txt
#include <cstdio>
#include "../../attempts/34-cluster-splitk/kernel.cu"

int main() {
  if (int err = nvfp4_gemv_setup()) {
    std::printf("nvfp4_gemv_setup failed: %s\n", cudaGetErrorString(static_cast<cudaError_t>(err)));
    return 1;
  }
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nvfp4_gemv_kernel, WARPS_PER_BLOCK * 32, 0);
  std::printf("blocks per SM %d\n", per_sm);
  for (int s = 1; s <= MAX_CLUSTER; ++s) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(s);
    config.blockDim = dim3(WARPS_PER_BLOCK * 32);
    cudaLaunchAttribute cluster;
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = s;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.attrs = &cluster;
    config.numAttrs = 1;
    int n = -1;
    const cudaError_t e = cudaOccupancyMaxActiveClusters(&n, nvfp4_gemv_kernel, &config);
    std::printf("cluster %2d: max active clusters %4d = %5d blocks (%s)\n", s, n, n * s, cudaGetErrorString(e));
  }
  return 0;
}

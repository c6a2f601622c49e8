// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/cluster_links.h"

namespace lse {

double intraNodeBytesPerSecondPerGpu(const ClusterConfig &cluster)
{
    return cluster.intra_node_gbps_per_gpu ? bytesPerSecondFromGbps(*cluster.intra_node_gbps_per_gpu)
                                           : cluster.accelerator.intra_node_bandwidth_bytes_per_second;
}

double interNodeBytesPerSecondPerGpu(const ClusterConfig &cluster)
{
    return cluster.inter_node_gbps_per_gpu ? bytesPerSecondFromGbps(*cluster.inter_node_gbps_per_gpu)
                                           : cluster.accelerator.inter_node_bandwidth_bytes_per_second;
}

double linkBytesPerSecondPerGpu(const ClusterConfig &cluster, bool inter_node)
{
    return inter_node ? interNodeBytesPerSecondPerGpu(cluster) : intraNodeBytesPerSecondPerGpu(cluster);
}

}  // namespace lse

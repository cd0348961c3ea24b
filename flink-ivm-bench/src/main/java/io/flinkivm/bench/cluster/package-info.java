/**
 * A local Flink standalone cluster started from the project's own build: a JobManager (with the web UI) and
 * TaskManagers as separate JVMs on 127.0.0.1 ({@link io.flinkivm.bench.cluster.LocalFlinkCluster}), their
 * classpath ({@link io.flinkivm.bench.cluster.ClusterClasspath}) and configuration
 * ({@link io.flinkivm.bench.cluster.ClusterConfiguration}) defined once for {@code scripts/local-cluster.sh}
 * and the integration tests, which run the cluster jar of flink-ivm-examples on it.
 */
package io.flinkivm.bench.cluster;

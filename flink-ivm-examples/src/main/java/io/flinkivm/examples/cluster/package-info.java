/**
 * A local Flink standalone cluster started from the project's own build: a JobManager (with the web UI) and
 * TaskManagers as separate JVMs on 127.0.0.1 ({@link io.flinkivm.examples.cluster.LocalFlinkCluster}), their
 * classpath ({@link io.flinkivm.examples.cluster.ClusterClasspath}) and configuration
 * ({@link io.flinkivm.examples.cluster.ClusterConfiguration}) defined once for {@code scripts/local-cluster.sh}
 * and the integration tests. Not part of the cluster jar.
 */
package io.flinkivm.examples.cluster;

#!/usr/bin/env bash
# A local Flink standalone cluster from this repository's build (no Flink distribution needed):
# a JobManager with the web UI and TaskManagers, each a JVM of its own, on 127.0.0.1 only.
#
#   scripts/local-cluster.sh start [--taskmanagers N] [--conf KEY=VALUE]...   returns once the cluster accepts jobs
#   scripts/local-cluster.sh status                                          prints 'rest: http://127.0.0.1:<port>'
#   scripts/local-cluster.sh flink run -c io.flinkivm.examples.cli.Main \
#       flink-ivm-examples/target/flink-ivm-examples-0.1.0-SNAPSHOT-cluster.jar example ex10
#   scripts/local-cluster.sh stop                                            ends every process start began
#
# Build first: mvn -B -q package -DskipTests. The cluster runs from the jars Maven resolved (the ones the
# cluster jar leaves to the cluster) with a configuration it writes to $LOCAL_CLUSTER_HOME/conf
# (default: target/local-cluster). The implementation is io.flinkivm.bench.cluster.LocalClusterCommand, in
# flink-ivm-bench's jar (the cluster jar it runs is flink-ivm-examples').
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/flink-ivm-bench/target/flink-ivm-bench.jar"
if [[ ! -f "$jar" || ! -f "$root/flink-ivm-bench/target/local-cluster-classpath.txt" ]]; then
  echo "build first: (cd $root && mvn -B -q package -DskipTests)" >&2
  exit 1
fi
exec java -Dflinkivm.root="$root" -cp "$jar" io.flinkivm.bench.cluster.LocalClusterCommand "$@"

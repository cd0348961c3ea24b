/**
 * What every sink shares: epochs to snapshots or a changelog (SnapshotSinkOperator), the sink above the
 * border over root updates, its state and its dirty marks.
 */
package io.flinkivm.flink.sink;

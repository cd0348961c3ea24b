/**
 * The state layout: core's state interfaces ({@code KeyValueState}, {@code ViewTreeStore} and
 * {@code ChildPayloads}, {@code JoinRecordStore}, {@code QTreeStore}, the bags' maps, {@code DeltaJoinStore},
 * {@code KeyStageStore}) implemented with Flink managed keyed state or the operators' own maps.
 */
package io.flinkivm.flink.state;

/**
 * The state layout: core's state interfaces ({@code KeyValueState}, {@code ChildPayloads},
 * {@code BooleanJoinStore}, {@code BagJoinStore}, {@code DeltaJoinStore}) implemented with Flink managed
 * keyed state.
 */
package io.flinkivm.flink.state;

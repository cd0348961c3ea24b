/**
 * The key stages of a keyed plan: the key route in front of them and the keyed operator per stage, with
 * its store over Flink state.
 */
package io.flinkivm.flink.keys;

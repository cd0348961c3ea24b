/**
 * Flink type information and serializers for flink-ivm's values: tuples, the built-in semirings'
 * payloads and the records on the streams between operators. Every serializer has a snapshot, so
 * savepoints survive upgrades; no type here falls back to Kryo.
 */
package io.flinkivm.flink.types;

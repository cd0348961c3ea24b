/**
 * The Boolean join above the border (LiveJoin): walks of the join tree over join records, written once
 * against JoinRecordStore, and the in-memory store.
 */
package io.flinkivm.core.engine.border;

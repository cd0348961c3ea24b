/**
 * State in memory: the key-value state interface, the open-addressing hash map, the undo log that
 * rolls back a failed insert, and the counts of state operations.
 */
package io.flinkivm.core.engine.maps;

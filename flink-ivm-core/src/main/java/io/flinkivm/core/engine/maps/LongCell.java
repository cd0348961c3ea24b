package io.flinkivm.core.engine.maps;

import org.apache.flink.annotation.Internal;

/**
 * A {@link Long} payload kept in long-lived state as a mutable primitive: the slot holds the cell
 * from its first write on, and later writes change the cell's value instead of storing a new
 * {@code Long} into the slot. Storing a new object into an object that has lived long (an old
 * generation array, most of the state) costs the garbage collector far more than the write itself
 * (G1 tracks every such reference); a primitive write costs nothing extra. Readers see the value
 * boxed ({@link #boxed}).
 */
@Internal
public final class LongCell {
    /** The payload. */
    public long value;

    public LongCell(long value) {
        this.value = value;
    }

    /** {@code slot}'s payload as an object: a cell's value boxed, anything else as it is. */
    public static Object boxed(Object slot) {
        return slot instanceof LongCell c ? Long.valueOf(c.value) : slot;
    }

    @Override
    public String toString() {
        return "LongCell[" + value + "]";
    }
}

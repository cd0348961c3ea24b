package io.flinkivm.flink.usersemiring;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.concurrent.atomic.AtomicLong;

/** Kryo 5 serializer for {@link Capacity}: the amount as a variable-length long. Counts its writes. */
public final class CapacityKryoSerializer extends Serializer<Capacity> {
    /** Capacities written by any instance in this JVM (tests check that Flink used this serializer). */
    public static final AtomicLong WRITES = new AtomicLong();

    public CapacityKryoSerializer() {
        setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output output, Capacity capacity) {
        WRITES.incrementAndGet();
        output.writeVarLong(capacity.amount(), true);
    }

    @Override
    public Capacity read(Kryo kryo, Input input, Class<? extends Capacity> type) {
        long amount = input.readVarLong(true);
        return amount == 0 ? Capacity.NONE : amount == Long.MAX_VALUE ? Capacity.UNLIMITED : new Capacity(amount);
    }
}

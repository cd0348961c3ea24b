package io.flinkivm.flink.state;

import io.flinkivm.core.engine.ChildPayloads;
import org.apache.flink.api.common.state.ValueState;

/** A join view's child payloads in one {@link ValueState} per child slot (scoped to the current key). */
public final class ValueStateChildPayloads<T> implements ChildPayloads<T> {
    private final ValueState<T>[] slots;
    private final String name;

    public ValueStateChildPayloads(ValueState<T>[] slots, String name) {
        this.slots = slots.clone();
        this.name = name;
    }

    @Override
    public T get(int slot) {
        try {
            return slots[slot].value();
        } catch (Exception e) {
            throw new StateAccessException("cannot read child " + slot + " of " + name, e);
        }
    }

    @Override
    public void set(int slot, T payload) {
        try {
            slots[slot].update(payload);
        } catch (Exception e) {
            throw new StateAccessException("cannot write child " + slot + " of " + name, e);
        }
    }
}

package io.flinkivm.examples.bench;

/** Shared boxed values for generated streams, so that a stream holds one {@link Long} per distinct value. */
final class Values {
    private Values() {
    }

    /** {@code 0L .. size-1L}, boxed once. */
    static Long[] pool(int size) {
        Long[] pool = new Long[size];
        for (int i = 0; i < size; i++) {
            pool[i] = (long) i;
        }
        return pool;
    }
}

package io.flinkivm.core.engine.maps;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OpenHashMapTest {

    /** A key whose hash codes collide in groups, so probe runs are long and wrap around the table. */
    private record Colliding(int id) {
        @Override
        public int hashCode() {
            return id % 7;
        }
    }

    @Test
    void randomOperationsAgreeWithHashMap() {
        for (long seed = 0; seed < 40; seed++) {
            Random random = new Random(seed);
            OpenHashMap<Object, Integer> map = new OpenHashMap<>();
            Map<Object, Integer> expected = new HashMap<>();
            int domain = 1 + random.nextInt(300);
            boolean colliding = seed % 2 == 0;
            for (int op = 0; op < 5_000; op++) {
                int id = random.nextInt(domain);
                Object key = colliding ? new Colliding(id) : Tuple.of((long) id, "k" + (id % 3));
                switch (random.nextInt(3)) {
                    case 0 -> {
                        map.put(key, op);
                        expected.put(key, op);
                    }
                    case 1 -> {
                        map.remove(key);
                        expected.remove(key);
                    }
                    default ->
                        assertThat(map.get(key)).as("seed %d op %d", seed, op).isEqualTo(expected.get(key));
                }
                assertThat(map.size()).isEqualTo(expected.size());
            }
            for (Map.Entry<Object, Integer> e : expected.entrySet()) {
                assertThat(map.get(e.getKey())).as("seed %d", seed).isEqualTo(e.getValue());
            }
            Map<Object, Integer> iterated = new HashMap<>();
            for (Iterator<Map.Entry<Object, Integer>> it = map.entries(); it.hasNext(); ) {
                Map.Entry<Object, Integer> e = it.next();
                assertThat(iterated.put(e.getKey(), e.getValue())).isNull();
            }
            assertThat(iterated).isEqualTo(expected);
        }
    }

    @Test
    void wideEntriesKeepTheirSlotsThroughGrowthAndRemoval() {
        for (long seed = 0; seed < 20; seed++) {
            Random random = new Random(seed);
            int width = 2 + random.nextInt(3);
            OpenHashMap<Object, Object> map = new OpenHashMap<>(width);
            Map<Object, Object[]> expected = new HashMap<>();
            int domain = 1 + random.nextInt(400);
            for (int op = 0; op < 5_000; op++) {
                int id = random.nextInt(domain);
                Object key = seed % 2 == 0 ? new Colliding(id) : Tuple.of((long) id);
                int e = map.entry(key);
                assertThat(e >= 0).as("seed %d op %d", seed, op).isEqualTo(expected.containsKey(key));
                if (random.nextInt(4) == 0) {
                    map.remove(key);
                    expected.remove(key);
                    continue;
                }
                if (e < 0) {
                    e = map.addEntry(key);
                    expected.put(key, new Object[width]);
                }
                Object[] want = expected.get(key);
                for (int s = 0; s < width; s++) {
                    assertThat(map.slots()[map.base(e) + s])
                            .as("seed %d op %d slot %d", seed, op, s)
                            .isEqualTo(want[s]);
                }
                int slot = random.nextInt(width);
                map.slots()[map.base(e) + slot] = op;
                want[slot] = op;
            }
            assertThat(map.size()).isEqualTo(expected.size());
            for (Map.Entry<Object, Object[]> x : expected.entrySet()) {
                int e = map.entry(x.getKey());
                for (int s = 0; s < width; s++) {
                    assertThat(map.slots()[map.base(e) + s]).isEqualTo(x.getValue()[s]);
                }
            }
        }
    }

    @Test
    void nullValueRemovesAndClearEmpties() {
        OpenHashMap<Tuple, String> map = new OpenHashMap<>();
        for (long i = 0; i < 1000; i++) {
            map.put(Tuple.of(i), "v" + i);
        }
        map.put(Tuple.of(5L), null);
        assertThat(map.get(Tuple.of(5L))).isNull();
        assertThat(map.size()).isEqualTo(999);
        map.clear();
        assertThat(map.size()).isZero();
        assertThat(map.get(Tuple.of(6L))).isNull();
        assertThat(map.entries().hasNext()).isFalse();
    }

    /**
     * A Long whose hash code is {@code id}: Long.hashCode folds the high word into the low one, so the
     * twins {@code t = 0..3} of an id are distinct values with one hash code, and tuples of them collide.
     */
    private static Long twin(int id, int t) {
        return ((long) t << 32) | (id ^ t);
    }

    private static Tuple longTuple(Random random, int arity, int domain) {
        Object[] v = new Object[arity];
        for (int j = 0; j < arity; j++) {
            v[j] = twin(random.nextInt(domain), random.nextInt(4));
        }
        return Tuple.wrap(v);
    }

    /** A key that is not a tuple of Longs of {@code arity}: a String, an Integer, another arity, or not a tuple. */
    private static Object otherKey(Random random, int arity, int domain) {
        int id = random.nextInt(domain);
        return switch (random.nextInt(5)) {
            case 0 -> Tuple.of(twin(id, 0), "s" + (id % 5));
            case 1 ->
                arity == 0 ? Tuple.of(id) : Tuple.wrap(withInteger(arity, id)); // same hash code as the Long tuple
            case 2 -> longTuple(random, arity + 1, domain);
            case 3 -> new Colliding(id);
            default -> Tuple.of((double) id);
        };
    }

    private static Object[] withInteger(int arity, int id) {
        Object[] v = new Object[arity];
        for (int j = 0; j < arity; j++) {
            v[j] = twin(id, 0);
        }
        v[arity - 1] = id;
        return v;
    }

    /** Random puts, gets and removes against java.util.HashMap; {@code otherFrom}: op where other key kinds start (-1: never). */
    private static void agreeWithHashMap(long seed, int arity, int otherFrom) {
        Random random = new Random(seed);
        OpenHashMap<Object, Integer> map = new OpenHashMap<>();
        Map<Object, Integer> expected = new HashMap<>();
        int domain = 1 + random.nextInt(2000);
        int ops = 6_000;
        for (int op = 0; op < ops; op++) {
            boolean other = otherFrom >= 0 && op >= otherFrom ? random.nextInt(3) == 0 : random.nextInt(50) == 0;
            Object key = other ? otherKey(random, arity, domain) : longTuple(random, arity, domain);
            // Looking up other kinds of keys before any is stored must not change anything.
            boolean mayStore = !other || (otherFrom >= 0 && op >= otherFrom);
            int kind = random.nextInt(10);
            if (kind < 5 && mayStore) {
                map.put(key, op);
                expected.put(key, op);
            } else if (kind < 7 && mayStore) {
                map.remove(key);
                expected.remove(key);
            } else {
                assertThat(map.get(key))
                        .as("seed %d arity %d op %d key %s", seed, arity, op, key)
                        .isEqualTo(expected.get(key));
            }
            assertThat(map.size()).as("seed %d op %d", seed, op).isEqualTo(expected.size());
        }
        for (Map.Entry<Object, Integer> e : expected.entrySet()) {
            assertThat(map.get(e.getKey()))
                    .as("seed %d arity %d %s", seed, arity, e.getKey())
                    .isEqualTo(e.getValue());
        }
        Map<Object, Integer> iterated = new HashMap<>();
        for (Iterator<Map.Entry<Object, Integer>> it = map.entries(); it.hasNext(); ) {
            Map.Entry<Object, Integer> e = it.next();
            assertThat(iterated.put(e.getKey(), e.getValue())).isNull();
        }
        assertThat(iterated).isEqualTo(expected);
    }

    @Test
    void longTupleKeysWithCollidingHashCodesAgreeWithHashMap() {
        for (int arity = 0; arity <= 5; arity++) {
            for (long seed = 0; seed < 6; seed++) {
                agreeWithHashMap(100 * arity + seed, arity, -1);
            }
        }
    }

    @Test
    void otherKeyKindsArrivingMidwayAgreeWithHashMap() {
        // Before the first growth (op 3), after several (op 500, 4000), and from the start (op 0).
        int[] from = {0, 3, 500, 4000};
        for (int arity = 1; arity <= 5; arity++) {
            for (int f : from) {
                agreeWithHashMap(1000 * arity + f, arity, f);
            }
        }
    }

    @Test
    void wideEntriesKeepTheirSlotsWhenOtherKeyKindsArrive() {
        for (long seed = 0; seed < 16; seed++) {
            Random random = new Random(seed);
            int width = 2 + random.nextInt(3);
            int arity = 1 + random.nextInt(5);
            int otherFrom = new int[] {0, 5, 700, 3000}[(int) (seed % 4)];
            OpenHashMap<Object, Object> map = new OpenHashMap<>(width);
            Map<Object, Object[]> expected = new HashMap<>();
            int domain = 1 + random.nextInt(600);
            for (int op = 0; op < 4_000; op++) {
                Object key = op >= otherFrom && random.nextInt(3) == 0
                        ? otherKey(random, arity, domain)
                        : longTuple(random, arity, domain);
                int e = map.entry(key);
                assertThat(e >= 0).as("seed %d op %d", seed, op).isEqualTo(expected.containsKey(key));
                if (random.nextInt(4) == 0) {
                    map.remove(key);
                    expected.remove(key);
                    continue;
                }
                if (e < 0) {
                    e = map.addEntry(key);
                    expected.put(key, new Object[width]);
                }
                Object[] want = expected.get(key);
                for (int s = 0; s < width; s++) {
                    assertThat(map.slots()[map.base(e) + s])
                            .as("seed %d op %d slot %d", seed, op, s)
                            .isEqualTo(want[s]);
                }
                int slot = random.nextInt(width);
                map.slots()[map.base(e) + slot] = op;
                want[slot] = op;
            }
            assertThat(map.size()).isEqualTo(expected.size());
            for (Map.Entry<Object, Object[]> x : expected.entrySet()) {
                int e = map.entry(x.getKey());
                assertThat(e).as("seed %d %s", seed, x.getKey()).isNotNegative();
                for (int s = 0; s < width; s++) {
                    assertThat(map.slots()[map.base(e) + s]).isEqualTo(x.getValue()[s]);
                }
            }
        }
    }
}

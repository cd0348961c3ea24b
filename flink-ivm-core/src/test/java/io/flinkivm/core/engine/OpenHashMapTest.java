package io.flinkivm.core.engine;

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
                    default -> assertThat(map.get(key)).as("seed %d op %d", seed, op).isEqualTo(expected.get(key));
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
                    assertThat(map.slots()[map.base(e) + s]).as("seed %d op %d slot %d", seed, op, s).isEqualTo(want[s]);
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
}

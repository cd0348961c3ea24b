package io.flinkivm.examples.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Reassembles snapshots from the JSON records of the kafka command's result topic ({@code --output-mode snapshot}). */
public final class ResultTopic {
    private ResultTopic() {}

    /**
     * Prefix-exact snapshots by id, each checked complete: {@code parts} end markers, each saying
     * {@code parts}, whose row counts add up to the snapshot's rows.
     */
    public static Map<Long, Map<Tuple, String>> completeSnapshots(
            List<ConsumerRecord<byte[], byte[]>> records, int parts) {
        return completeSnapshots(records, (long) parts);
    }

    /**
     * As {@link #completeSnapshots(List, int)}, for a job that was rescaled: each snapshot has as many end markers
     * as they say it has parts (the parallelism of the job that wrote it).
     */
    public static Map<Long, Map<Tuple, String>> completeSnapshotsOfAnyParallelism(
            List<ConsumerRecord<byte[], byte[]>> records) {
        return completeSnapshots(records, null);
    }

    private static Map<Long, Map<Tuple, String>> completeSnapshots(
            List<ConsumerRecord<byte[], byte[]>> records, Long parts) {
        Map<Long, Map<Tuple, String>> rows = new HashMap<>();
        Map<Long, long[]> ends = new HashMap<>(); // id → {end markers, rows, parts}
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Map<String, Object> o = json(r);
            assertThat(o.get("prefixExact")).isEqualTo(Boolean.TRUE);
            long id = Long.parseLong(o.get("snapshot").toString());
            assertThat(new String(r.key(), UTF_8)).isEqualTo(Long.toString(id));
            if (o.get("type").equals("end")) {
                long[] e = ends.computeIfAbsent(id, k -> new long[3]);
                e[0]++;
                e[1] += Long.parseLong(o.get("rows").toString());
                long said = Long.parseLong(o.get("parts").toString());
                assertThat(e[0] == 1 || e[2] == said)
                        .as("the end markers of snapshot %d agree on its parts", id)
                        .isTrue();
                e[2] = said;
                assertThat(o.get("columns")).isEqualTo(List.of("A", "C"));
            } else {
                assertThat(o.get("type")).isEqualTo("row");
                List<?> values = (List<?>) o.get("values");
                Tuple t = Tuple.of(values.toArray());
                String previous = rows.computeIfAbsent(id, k -> new HashMap<>()).put(t, (String) o.get("payload"));
                assertThat(previous).as("snapshot %d has %s once", id, t).isNull();
            }
        }
        Map<Long, Map<Tuple, String>> out = new TreeMap<>();
        ends.forEach((id, e) -> {
            if (parts != null) {
                assertThat(e[2]).as("parts of snapshot %d", id).isEqualTo(parts);
            }
            assertThat(e[0]).as("end markers of snapshot %d", id).isEqualTo(e[2]);
            Map<Tuple, String> snapshot = rows.getOrDefault(id, Map.of());
            assertThat((long) snapshot.size()).as("rows of snapshot %d", id).isEqualTo(e[1]);
            out.put(id, snapshot);
        });
        return out;
    }

    /**
     * Whether all end markers of snapshot {@code id} are among {@code records} (as many as they say the snapshot has
     * parts), without checking anything else: for polling.
     */
    public static boolean hasAllEndMarkers(List<ConsumerRecord<byte[], byte[]>> records, long id) {
        int n = 0;
        long parts = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Map<String, Object> o = json(r);
            if (o.get("type").equals("end") && Long.parseLong(o.get("snapshot").toString()) == id) {
                n++;
                parts = Long.parseLong(o.get("parts").toString());
            }
        }
        return n > 0 && n >= parts;
    }

    private static Map<String, Object> json(ConsumerRecord<byte[], byte[]> r) {
        try {
            return Json.parseObject(new String(r.value(), UTF_8));
        } catch (Json.FormatException e) {
            throw new AssertionError("a result record that is not a JSON object: " + e.getMessage(), e);
        }
    }
}

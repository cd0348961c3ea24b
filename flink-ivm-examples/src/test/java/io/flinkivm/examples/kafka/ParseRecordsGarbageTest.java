package io.flinkivm.examples.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.MinPlusSemiring;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.testing.GarbageLines;
import io.flinkivm.examples.testing.GarbageLines.Expected;
import io.flinkivm.examples.testing.GarbageLines.Fate;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The Kafka path under the garbage of {@link GarbageLines}: every CSV record becomes exactly what the
 * record format says (an insert, a snapshot request, or a rejection with its reason); {@link ParseRecords}
 * in a Flink operator harness loses none (inserts + snapshot requests + dead letters = records), and each
 * dead letter carries its record's topic-partition@offset and text. Seeded.
 */
class ParseRecordsGarbageTest {

    private static final String EX10 = "Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)";
    private static final String PATH = "Q(A,C) :- R(A,B), S(B,C)";

    @Test
    void theParserDoesWhatTheFormatSays() throws Exception {
        check(EX10, NaturalSemiring.INSTANCE, new String[] {"1", "2", "3", "0", " 2"}, 11);
        check(PATH, MinPlusSemiring.INSTANCE, new String[] {"0", "1", "2.5", "inf"}, 12);
    }

    private static <T> void check(String queryText, Semiring<T> semiring, String[] payloads, long seed)
            throws Exception {
        Random random = new Random(seed);
        ConjunctiveQuery query = QueryParser.parse(queryText);
        GarbageLines garbage = new GarbageLines(query, semiring, payloads, random);
        RecordParser<T> parser = new RecordParser<>(query, semiring, RecordFormat.CSV, Map.of());
        ParseRecords<T> function = new ParseRecords<>(new RecordParser<>(query, semiring, RecordFormat.CSV, Map.of()));
        List<RawKafkaRecord> records = new ArrayList<>();
        Map<Long, Expected> expected = new HashMap<>();
        int inserts = 0;
        int snapshots = 0;
        int rejects = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] line = garbage.line();
            // A record as a producer might write it: the bare line, or the line with its LF (after CR: CRLF).
            byte[] value = random.nextBoolean() ? line : Arrays.copyOf(line, line.length + 1);
            if (value.length > line.length) {
                value[line.length] = '\n';
            }
            Expected e = garbage.kafkaExpects(value);
            String text = RecordParser.lenientText(value, 200);
            String context = "seed " + seed + ", record " + i + ": " + text;
            InputRecord<T> parsed = null;
            String reason = null;
            try {
                parsed = parser.parse("in", value, "in-0@" + i);
            } catch (RejectedRecordException ex) {
                reason = ex.getMessage();
            }
            switch (e.fate()) {
                case REJECT -> {
                    assertThat(reason).as(context).isNotNull().contains(e.reason());
                    rejects++;
                }
                case SNAPSHOT -> {
                    assertThat(parsed).as(context).isNotNull();
                    assertThat(parsed.isSnapshotRequest()).as(context).isTrue();
                    snapshots++;
                }
                case INSERT -> {
                    assertThat(reason).as(context).isNull();
                    GarbageLines.Insert want = e.insert();
                    T payload = want.payload() == null ? semiring.one() : semiring.parse(want.payload());
                    assertThat(parsed)
                            .as(context)
                            .isEqualTo(InputRecord.insert(want.relation(), want.tuple(), payload, "in-0@" + i));
                    inserts++;
                }
                default -> throw new AssertionError(e);
            }
            records.add(new RawKafkaRecord("in", 0, i, null, value));
            expected.put((long) i, e);
        }
        assertThat(inserts).isGreaterThan(500);
        assertThat(rejects).isGreaterThan(500);

        // The same records through the Flink function: nothing lost, dead letters with origin and text.
        try (OneInputStreamOperatorTestHarness<RawKafkaRecord, InputRecord<T>> harness =
                new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(function))) {
            harness.open();
            for (RawKafkaRecord r : records) {
                harness.processElement(new StreamRecord<>(r));
            }
            List<InputRecord<T>> out = new ArrayList<>();
            for (Object o : harness.getOutput()) {
                if (o instanceof StreamRecord<?> sr) {
                    @SuppressWarnings("unchecked")
                    InputRecord<T> r = (InputRecord<T>) sr.getValue();
                    out.add(r);
                }
            }
            List<DeadLetter> dead = new ArrayList<>();
            for (StreamRecord<DeadLetter> sr : harness.getSideOutput(ParseRecords.REJECTED)) {
                dead.add(sr.getValue());
            }
            assertThat(out.size() + dead.size()).isEqualTo(records.size());
            assertThat(out).hasSize(inserts + snapshots);
            assertThat(dead).hasSize(rejects);
            for (DeadLetter d : dead) {
                assertThat(d.origin()).startsWith("in-0@");
                long offset = Long.parseLong(d.origin().substring("in-0@".length()));
                assertThat(expected.get(offset).fate()).as(d.toString()).isEqualTo(Fate.REJECT);
                assertThat(d.reason()).contains(expected.get(offset).reason());
                assertThat(d.record())
                        .isEqualTo(RecordParser.lenientText(
                                records.get((int) offset).value, DeadLetterJson.MAX_RECORD_CHARS));
            }
        }
    }
}

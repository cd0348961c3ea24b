package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.examples.cli.Main;
import io.flinkivm.examples.kafka.EmbeddedKafka;
import io.flinkivm.examples.kafka.ResultTopic;
import io.flinkivm.flink.types.InputRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Ex. 10 through the {@code kafka} command on a local cluster: the {@code example ex10} generator's inserts as
 * CSV records on a topic of several partitions (insert i on partition i mod partitions), produced while the job
 * runs; the job's snapshots, read back with read_committed, each compared with the in-memory engine on the inserts
 * it covers. When every ingest subtask reads whole partitions (or, for one partition, gets the records dealt round
 * robin), snapshot {@code id} covers exactly inserts 0 .. id-1: each subtask's first inserts make up a prefix of the
 * stream.
 */
final class Ex10OnKafka {
    private final EmbeddedKafka kafka;
    private final String name;
    private final int partitions;
    private final List<InputRecord<Long>> inserts;

    Ex10OnKafka(EmbeddedKafka kafka, String name, int partitions, int inserts, long seed) throws Exception {
        this.kafka = kafka;
        this.name = name;
        this.partitions = partitions;
        this.inserts = Ex10Oracle.inserts(inserts, seed);
        kafka.createTopic(input(), partitions);
    }

    String input() {
        return name + "-inserts";
    }

    String output() {
        return name + "-results";
    }

    /**
     * {@code flink run -d [clientOptions] -c Main <cluster jar> kafka ...} with the job's parallelism and further
     * options of the kafka command; exactly-once, unbounded, RocksDB, a checkpoint every second.
     */
    List<String> flinkRun(List<String> clientOptions, int parallelism, int snapshotEvery, String... kafkaOptions) {
        List<String> args = new ArrayList<>(List.of("run", "-d"));
        args.addAll(clientOptions);
        args.addAll(List.of(
                "-c",
                Main.class.getName(),
                LocalFlinkClusterExtension.clusterJar().toString(),
                "kafka",
                "--query",
                Ex10Oracle.QUERY,
                "--semiring",
                "natural",
                "--kafka-bootstrap",
                kafka.bootstrapServers(),
                "--input-topic",
                input(),
                "--output-topic",
                output(),
                "--dead-letter-topic",
                name + "-dead-letters",
                "--group-id",
                name,
                "--delivery",
                "exactly-once",
                "--snapshot-every",
                Integer.toString(snapshotEvery),
                "--parallelism",
                Integer.toString(parallelism),
                "--state",
                "rocksdb",
                "--checkpoint-interval",
                "1 s"));
        args.addAll(Arrays.asList(kafkaOptions));
        return args;
    }

    /** Starts a thread that produces inserts [from, to) in rounds of {@code perRound}, {@code pause} apart. */
    Producer produce(int from, int to, int perRound, Duration pause) {
        Producer p = new Producer(from, to, perRound, pause);
        p.start();
        return p;
    }

    /** Produces inserts [from, to) now. */
    void produceAll(int from, int to) throws InterruptedException {
        Producer p = produce(from, to, to - from, Duration.ZERO);
        p.join();
        p.check();
    }

    /** The result topic as a read_committed consumer sees it now. */
    List<ConsumerRecord<byte[], byte[]>> results() {
        return kafka.readCommitted(output());
    }

    /** Waits until every end marker of snapshot {@code id} is visible to read_committed consumers. */
    void awaitSnapshot(long id, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (ResultTopic.hasAllEndMarkers(results(), id)) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("snapshot " + id + " is not complete in " + output() + " after " + timeout);
    }

    /**
     * Reads the result topic with read_committed and checks every snapshot: complete (all its parts, their rows
     * adding up), each row once, each snapshot once, and equal to the in-memory engine's result over the inserts
     * it covers. Returns the snapshot ids in order.
     */
    List<Long> assertSnapshotsExact() {
        Map<Long, Map<Tuple, String>> snapshots = ResultTopic.completeSnapshotsOfAnyParallelism(results());
        Ex10Oracle engine = new Ex10Oracle();
        long applied = 0;
        for (Map.Entry<Long, Map<Tuple, String>> e : snapshots.entrySet()) {
            long id = e.getKey();
            assertThat(id).as("snapshot id (inserts covered)").isBetween(1L, (long) inserts.size());
            engine.insert(inserts.subList((int) applied, (int) id));
            applied = id;
            assertThat(e.getValue())
                    .as("snapshot %d = the in-memory engine after inserts 0..%d", id, id - 1)
                    .isEqualTo(engine.result());
        }
        return new ArrayList<>(snapshots.keySet());
    }

    /** Produces inserts on a thread: insert i goes to partition i mod partitions. */
    final class Producer extends Thread {
        private final int from;
        private final int to;
        private final int perRound;
        private final Duration pause;
        private volatile int produced;
        private volatile Throwable failure;

        Producer(int from, int to, int perRound, Duration pause) {
            super("produce " + input());
            setDaemon(true);
            this.from = from;
            this.to = to;
            this.perRound = perRound;
            this.pause = pause;
        }

        @Override
        public void run() {
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
                for (int i = from; i < to; ) {
                    int end = Math.min(to, i + perRound);
                    for (; i < end; i++) {
                        byte[] value = Ex10Oracle.csv(inserts.get(i)).getBytes(StandardCharsets.UTF_8);
                        producer.send(new ProducerRecord<>(input(), i % partitions, null, value));
                    }
                    producer.flush();
                    produced = i - from;
                    if (!pause.isZero()) {
                        Thread.sleep(pause.toMillis());
                    }
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        /** The inserts written so far (flushed). */
        int produced() {
            return produced;
        }

        /** Waits until {@code n} inserts are written. */
        void awaitProduced(int n) throws InterruptedException {
            while (produced < n && isAlive()) {
                Thread.sleep(20);
            }
            check();
        }

        void check() {
            if (failure != null) {
                throw new AssertionError("producing to " + input() + " failed", failure);
            }
        }
    }
}

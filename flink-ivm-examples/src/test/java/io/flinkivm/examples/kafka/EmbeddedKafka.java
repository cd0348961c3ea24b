package io.flinkivm.examples.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node KRaft Kafka (broker and controller) in this JVM, listening on 127.0.0.1 only, with
 * every replication factor and min ISR at 1 so that transactions work on one node. Formats a fresh
 * log directory, starts in a few seconds, and deletes the directory on {@link #close()}.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
 *     kafka.createTopic("in", 1);
 *     kafka.produce("in", List.of("R,a,1".getBytes(UTF_8)));
 *     List<ConsumerRecord<byte[], byte[]>> out = kafka.readAll("out");
 * }
 * }</pre>
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Path directory;
    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private final Admin admin;
    private boolean closed;

    private EmbeddedKafka(Path directory, KafkaRaftServer server, String bootstrapServers) {
        this.directory = directory;
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        this.admin = Admin.create(p);
    }

    /** Formats a log directory, starts the node and waits until the broker answers. */
    public static EmbeddedKafka start() throws Exception {
        Path directory = Files.createTempDirectory("embedded-kafka");
        int brokerPort = freePort();
        int controllerPort = freePort();
        Properties props = properties(directory.resolve("logs"), brokerPort, controllerPort);
        Path config = directory.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            props.store(out, "embedded Kafka for tests");
        }
        // StorageTool$.execute, never StorageTool.main: main calls System.exit.
        int formatted = kafka.tools.StorageTool$.MODULE$.execute(
                new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", config.toString(), "--standalone"},
                new PrintStream(OutputStream.nullOutputStream()));
        if (formatted != 0) {
            throw new IllegalStateException("formatting the Kafka log directory failed with " + formatted);
        }
        KafkaRaftServer server =
                new KafkaRaftServer(KafkaConfig.fromProps(props, new Properties(), false), Time.SYSTEM);
        server.startup();
        EmbeddedKafka kafka = new EmbeddedKafka(directory, server, "127.0.0.1:" + brokerPort);
        try {
            kafka.awaitReady();
        } catch (Exception e) {
            kafka.close();
            throw e;
        }
        return kafka;
    }

    private static Properties properties(Path logs, int brokerPort, int controllerPort) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", logs.toString());
        p.put("num.partitions", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        // Tests create their topics: a typo must not create a new one.
        p.put("auto.create.topics.enable", "false");
        return p;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            try {
                if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                    return;
                }
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the embedded Kafka did not become ready within " + TIMEOUT, e);
                }
            }
            Thread.sleep(100);
        }
    }

    /** {@code 127.0.0.1:port} of the broker listener. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** An admin client, closed with this broker. */
    public Admin admin() {
        return admin;
    }

    public void createTopic(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                .all()
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Writes the values (in order, to partition 0) and returns where each one landed. */
    public List<RecordMetadata> produce(String topic, List<byte[]> values) throws Exception {
        return produce(topic, 0, values);
    }

    /** Writes the values in order to one partition of {@code topic} and returns where each one landed. */
    public List<RecordMetadata> produce(String topic, int partition, List<byte[]> values) throws Exception {
        return produce(topic, partition, Collections.nCopies(values.size(), null), values);
    }

    /** Writes the records (key and value, either may be null) in order to one partition of {@code topic}. */
    public List<RecordMetadata> produce(String topic, int partition, List<byte[]> keys, List<byte[]> values)
            throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        List<RecordMetadata> out = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, partition, keys.get(i), values.get(i))));
            }
            producer.flush();
            for (Future<RecordMetadata> f : sent) {
                out.add(f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            }
        }
        return out;
    }

    /**
     * Every record of {@code topic} a consumer with {@code isolation.level=read_committed} sees, up to
     * the end offsets at the time of the call, partition by partition in offset order.
     */
    public List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topic, TIMEOUT)
                    .forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
            partitions.sort(Comparator.comparingInt(TopicPartition::partition));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
            Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> byPartition = new HashMap<>();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp, TIMEOUT) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + topic + " did not reach the end offsets " + end);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    byPartition
                            .computeIfAbsent(new TopicPartition(r.topic(), r.partition()), k -> new ArrayList<>())
                            .add(r);
                }
            }
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                out.addAll(byPartition.getOrDefault(tp, List.of()));
            }
            return out;
        }
    }

    /** Stops the node and deletes its log directory; a second call does nothing. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        admin.close(Duration.ofSeconds(5));
        server.shutdown();
        server.awaitShutdown();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }
}

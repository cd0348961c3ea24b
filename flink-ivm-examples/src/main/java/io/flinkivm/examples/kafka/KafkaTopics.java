package io.flinkivm.examples.kafka;

import io.flinkivm.flink.OutputMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** The {@code kafka} command's look at the broker before the job: input topics there, output topics made. */
final class KafkaTopics {
    /** How long the checks before the job wait for Kafka. */
    static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(20);

    private KafkaTopics() {}

    /**
     * Checks that Kafka answers and the input topics exist, and creates missing output topics; returns
     * a message for the user if the job cannot start, else null. Puts the number of input partitions
     * (over all input topics) into {@code partitions[0]}.
     */
    static String prepare(KafkaPipeline.Settings s, int[] partitions) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrapServers());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) KAFKA_TIMEOUT.toMillis());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) KAFKA_TIMEOUT.toMillis());
        try (Admin admin = Admin.create(p)) {
            Set<String> existing = admin.listTopics().names().get(KAFKA_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<String> missing = new ArrayList<>();
            for (String t : s.inputTopics()) {
                if (!existing.contains(t)) {
                    missing.add(t);
                }
            }
            if (!missing.isEmpty()) {
                return "input topic" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
                        + (missing.size() == 1 ? " does" : " do") + " not exist on " + s.bootstrapServers()
                        + "; create " + (missing.size() == 1 ? "it" : "them") + " first";
            }
            partitions[0] = admin
                    .describeTopics(s.inputTopics())
                    .allTopicNames()
                    .get(KAFKA_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .values()
                    .stream()
                    .mapToInt(d -> d.partitions().size())
                    .sum();
            List<NewTopic> create = new ArrayList<>();
            for (String t : List.of(s.outputTopic(), s.deadLetterTopic())) {
                if (!existing.contains(t)) {
                    NewTopic topic = new NewTopic(t, Optional.of(1), Optional.empty());
                    if (t.equals(s.outputTopic()) && s.outputMode() == OutputMode.CHANGELOG) {
                        // An upsert topic: compaction keeps the last value per result tuple, the result.
                        topic.configs(Map.of("cleanup.policy", "compact"));
                    }
                    create.add(topic);
                }
            }
            if (!create.isEmpty()) {
                try {
                    admin.createTopics(create).all().get(KAFKA_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        return "cannot create output topics on " + s.bootstrapServers() + ": "
                                + e.getCause().getMessage();
                    }
                }
            }
            return null;
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            return "cannot reach Kafka at " + s.bootstrapServers() + " within " + KAFKA_TIMEOUT.toSeconds() + " s: "
                    + cause.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while connecting to Kafka at " + s.bootstrapServers();
        } catch (org.apache.kafka.common.KafkaException e) {
            return "cannot connect to Kafka at " + s.bootstrapServers() + ": " + e.getMessage();
        }
    }
}

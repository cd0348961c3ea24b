package io.flinkivm.bench.cluster;

import io.flinkivm.examples.kafka.EmbeddedKafka;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** An {@link EmbeddedKafka} broker for a test class: started before its tests, stopped after them. */
final class EmbeddedKafkaExtension implements BeforeAllCallback, AfterAllCallback {
    private EmbeddedKafka kafka;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        kafka = EmbeddedKafka.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (kafka != null) {
            kafka.close();
        }
    }

    /** The running broker (after {@code @BeforeAll}). */
    EmbeddedKafka kafka() {
        if (kafka == null) {
            throw new IllegalStateException("the broker starts before all tests of the class; register the"
                    + " extension on a static field with @RegisterExtension");
        }
        return kafka;
    }
}

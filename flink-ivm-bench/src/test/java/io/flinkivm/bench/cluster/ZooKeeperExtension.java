package io.flinkivm.bench.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A ZooKeeper server in the test JVM (Curator's {@code TestingServer}, which comes with flink-test-utils) on
 * 127.0.0.1 and a port chosen when the extension is made, so that a cluster's configuration can name it before it
 * starts. Register it before the cluster that uses it, so that it starts first and stops last.
 */
final class ZooKeeperExtension implements BeforeAllCallback, AfterAllCallback {
    private final int port;
    private TestingServer server;
    private Path directory;

    ZooKeeperExtension() {
        try {
            this.port = LocalFlinkCluster.freePort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for ZooKeeper", e);
        }
    }

    /** {@code 127.0.0.1:port}, for {@code high-availability.zookeeper.quorum}. */
    String quorum() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        directory = Files.createTempDirectory("zookeeper");
        Map<String, Object> properties = Map.of("clientPortAddress", "127.0.0.1", "admin.enableServer", "false");
        server = new TestingServer(
                new InstanceSpec(directory.toFile(), port, -1, -1, true, -1, 500, -1, properties, "127.0.0.1"), true);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (server != null) {
            server.close();
        }
    }
}

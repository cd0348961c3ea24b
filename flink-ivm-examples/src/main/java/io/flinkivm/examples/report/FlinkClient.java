package io.flinkivm.examples.report;

import org.apache.flink.client.program.StreamContextEnvironment;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Who runs this program: a Flink client ({@code flink run}, {@code flink run -d}, the web UI and the REST API's
 * {@code /jars/:id/run}, which run {@code main} on the JobManager) or plain {@code java}. Under a Flink client,
 * {@code main} must not call {@code System.exit} (on the JobManager it would end the JobManager); submitted
 * detached ({@code execution.attached: false}, always so through the REST API), nobody waits for the job, so a
 * program cannot collect results and must let the job report itself ({@link JobReport}).
 */
public final class FlinkClient {
    private FlinkClient() {}

    /** Whether a Flink client runs this program (it set its context environment). */
    public static boolean runsThisProgram() throws Exception {
        try (StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment()) {
            return env instanceof StreamContextEnvironment;
        }
    }

    /** Whether a Flink client runs this program and submits its job detached ({@link #detached}). */
    public static boolean submitsDetached() throws Exception {
        try (StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment()) {
            return detached(env);
        }
    }

    /** Whether {@code env} belongs to a Flink client that submits detached: the job runs on without this program. */
    public static boolean detached(StreamExecutionEnvironment env) {
        return env instanceof StreamContextEnvironment
                && !env.getConfiguration().get(DeploymentOptions.ATTACHED);
    }
}

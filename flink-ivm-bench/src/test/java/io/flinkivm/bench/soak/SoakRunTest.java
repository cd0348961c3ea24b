package io.flinkivm.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SoakRunTest {

    @Test
    void failuresWithoutAHistoryEntryAreCountedApart() {
        Map<String, Long> reasons = new LinkedHashMap<>();
        reasons.put("Checkpoint was declined (task is closing)", 2L);

        assertThat(SoakRun.failureLines(3, reasons))
                .containsExactly(
                        "(2 failed checkpoints: Checkpoint was declined (task is closing))",
                        "(1 failed checkpoint without a reason: refused when triggered, before it started, e.g. while"
                                + " a task was starting or finishing; Flink's checkpoint history keeps no entry for"
                                + " those)");
    }

    @Test
    void everyFailureExplainedAddsNoLine() {
        assertThat(SoakRun.failureLines(1, Map.of("Checkpoint expired before completing.", 1L)))
                .containsExactly("(1 failed checkpoint: Checkpoint expired before completing.)");
        assertThat(SoakRun.failureLines(0, Map.of())).isEmpty();
    }
}

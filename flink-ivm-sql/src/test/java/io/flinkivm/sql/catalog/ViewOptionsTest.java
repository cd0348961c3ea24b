package io.flinkivm.sql.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.Planner;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.WindowEmit;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

class ViewOptionsTest {

    @Test
    void noOptionsAreTheDefaults() {
        assertThat(ViewOptions.parse(null)).isEqualTo(ViewOptions.none());
        assertThat(ViewOptions.parse("  ")).isEqualTo(ViewOptions.none());
        assertThat(ViewOptions.none().ivm()).isEqualTo(IvmOptions.defaults());
        assertThat(ViewOptions.none().triggers()).isFalse();
        assertThat(ViewOptions.none().stateBackend()).isNull();
        assertThat(ViewOptions.none().deadLetters()).isNull();
    }

    @Test
    void everyNameMapsOntoItsSetting() {
        ViewOptions o = ViewOptions.parse("snapshot-period = 500 ms, parallelism=3, Mini-Batch = 7,"
                + " strategy = p-hierarchical, managed-state = true, state-ttl = 12 h, row-check = FALSE,"
                + " update-before = true, window-emit = FINAL,"
                + " uid-prefix = v1-, state = heap, dead-letters = rejected,"
                + " primary-key.lineitem = (l_orderkey, l_linenumber), primary-key.orders = o_orderkey");

        IvmOptions ivm = o.ivm();
        assertThat(ivm.snapshotPeriod()).isEqualTo(Duration.ofMillis(500));
        assertThat(ivm.parallelism()).isEqualTo(3);
        assertThat(ivm.miniBatch()).isEqualTo(7);
        assertThat(ivm.strategy()).isEqualTo(Planner.Strategy.P_HIERARCHICAL);
        assertThat(ivm.managedState()).isTrue();
        assertThat(ivm.stateTtl()).isEqualTo(Duration.ofHours(12));
        assertThat(ivm.rowCheck()).isFalse();
        assertThat(ivm.updateBefore()).isTrue();
        assertThat(ivm.windowEmit()).isEqualTo(WindowEmit.FINAL);
        assertThat(ivm.uidPrefix()).isEqualTo("v1-");
        assertThat(ivm.primaryKeys())
                .isEqualTo(Map.of("lineitem", List.of("l_orderkey", "l_linenumber"), "orders", List.of("o_orderkey")));
        assertThat(o.triggers()).isTrue();
        assertThat(o.stateBackend()).isEqualTo("hashmap");
        assertThat(o.deadLetters()).isEqualTo("rejected");

        ViewOptions every = ViewOptions.parse("snapshot-every=5000000000, state=RocksDB");
        assertThat(every.ivm().snapshotEvery()).isEqualTo(5_000_000_000L);
        assertThat(every.triggers()).isTrue();
        assertThat(every.stateBackend()).isEqualTo("rocksdb");
    }

    @Test
    void entriesSplitAtCommasOutsideParentheses() {
        assertThat(ViewOptions.split("a=1, b=(x, y),, c = 2 ,")).containsExactly("a=1", " b=(x, y)", " c = 2 ");
        assertThatThrownBy(() -> ViewOptions.split("a=(x, y"))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("options: unbalanced '(' in 'a=(x, y'");
        assertThatThrownBy(() -> ViewOptions.split("a=x), b=1"))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("options: unbalanced ')' at position 4 of 'a=x), b=1'");
    }

    @Test
    void aMistakeIsAnErrorThatListsTheNames() {
        String names = "; the options are name=value pairs separated by commas, the names "
                + String.join(", ", ViewOptions.KNOWN);
        assertThatThrownBy(() -> ViewOptions.parse("snapshot-evry = 3"))
                .isInstanceOf(ValidationException.class)
                .hasMessage("options: unknown option snapshot-evry" + names);
        assertThatThrownBy(() -> ViewOptions.parse("parallelism = 2, parallelism = 3"))
                .isInstanceOf(ValidationException.class)
                .hasMessage("options: option parallelism is given twice" + names);
        assertThatThrownBy(() -> ViewOptions.parse("parallelism"))
                .isInstanceOf(ValidationException.class)
                .hasMessage("options: 'parallelism' is not name=value" + names);
        assertThatThrownBy(() -> ViewOptions.parse("parallelism = two"))
                .isInstanceOf(ValidationException.class)
                .hasMessage("options: parallelism: expected a whole number, got 'two'" + names);
        assertThatThrownBy(() -> ViewOptions.parse("parallelism = 0"))
                .isInstanceOf(ValidationException.class)
                .hasMessage("options: parallelism: expected a whole number from 1 to 2^31-1, got 0" + names);
        assertThatThrownBy(() -> ViewOptions.parse("snapshot-period = soon"))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith(
                        "options: snapshot-period: expected a duration such as 500 ms, 1 s or 2 min," + " got 'soon'");
        assertThatThrownBy(() -> ViewOptions.parse("snapshot-period = 0 s"))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("options: snapshot-period: must be positive, got '0 s'");
        assertThatThrownBy(() -> ViewOptions.parse("row-check = maybe"))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("options: row-check: expected true or false, got 'maybe'");
        assertThatThrownBy(() -> ViewOptions.parse("strategy = fastest"))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("options: strategy: expected auto, p-hierarchical or fallback, got 'fastest'");
        assertThatThrownBy(() -> ViewOptions.parse("window-emit = last"))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("options: window-emit: expected changes or final, got 'last'");
        assertThatThrownBy(() -> ViewOptions.parse("state = memory"))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("options: state: expected heap or rocksdb, got 'memory'");
        assertThatThrownBy(() -> ViewOptions.parse("primary-key.orders = (a,,b)"))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith(
                        "options: primary-key.orders: expected a column or (column, column, ...), got" + " '(a,,b)'");
        assertThatThrownBy(() -> ViewOptions.parse("dead-letters ="))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("options: dead-letters: the value is empty");
    }
}

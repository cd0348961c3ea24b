package io.flinkivm.sql.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.catalog.ObjectPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code CREATE CATALOG ... WITH ('type' = 'flink-ivm', ...)} through Flink's factory discovery. */
class IvmCatalogFactoryTest {

    private StreamTableEnvironment tEnv;

    @BeforeEach
    void session() {
        tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
    }

    @Test
    void withoutWrappedOptionsTheTablesLiveInMemory() throws Exception {
        tEnv.executeSql("CREATE CATALOG ivm WITH ('type' = 'flink-ivm')");
        IvmCatalog ivm = catalog("ivm");
        assertThat(ivm.name()).isEqualTo("ivm");
        assertThat(ivm.base()).isInstanceOf(GenericInMemoryCatalog.class);
        assertThat(ivm.getDefaultDatabase()).isEqualTo(IvmCatalogFactory.DEFAULT_DATABASE_NAME);
        assertThat(ivm.listDatabases()).containsExactly("default", IvmCatalog.SYS);

        tEnv.executeSql("CREATE CATALOG shop WITH ('type' = 'flink-ivm', 'default-database' = 'sales')");
        assertThat(catalog("shop").getDefaultDatabase()).isEqualTo("sales");
    }

    @Test
    void wrappedOptionsCreateTheCatalogThatHoldsTheTables() throws Exception {
        tEnv.executeSql("CREATE CATALOG ivm WITH ('type' = 'flink-ivm', 'wrapped.type' = 'generic_in_memory',"
                + " 'wrapped.default-database' = 'warehouse')");
        IvmCatalog ivm = catalog("ivm");
        assertThat(ivm.base()).isInstanceOf(GenericInMemoryCatalog.class);
        assertThat(ivm.getDefaultDatabase()).isEqualTo("warehouse");

        tEnv.executeSql("CREATE TABLE ivm.warehouse.t (id BIGINT) WITH ('connector' = 'datagen')");
        assertThat(ivm.base().tableExists(new ObjectPath("warehouse", "t"))).isTrue();
    }

    @Test
    void wrongOptionsSayWhatIsExpected() {
        assertThatThrownBy(() -> tEnv.executeSql(
                        "CREATE CATALOG ivm WITH ('type' = 'flink-ivm', 'wrapped.default-database' = 'w')"))
                .rootCause()
                .isInstanceOf(ValidationException.class)
                .hasMessage("catalog ivm: the options wrapped.* describe the catalog that holds the tables and need"
                        + " wrapped.type (e.g. 'wrapped.type' = 'hive'); got [default-database]");
        assertThatThrownBy(() ->
                        tEnv.executeSql("CREATE CATALOG ivm WITH ('type' = 'flink-ivm', 'wrapped.type' = 'flink-ivm')"))
                .rootCause()
                .isInstanceOf(ValidationException.class)
                .hasMessage("catalog ivm: a flink-ivm catalog cannot wrap another one");
        assertThatThrownBy(() -> tEnv.executeSql("CREATE CATALOG ivm WITH ('type' = 'flink-ivm',"
                        + " 'wrapped.type' = 'generic_in_memory', 'default-database' = 'd')"))
                .rootCause()
                .isInstanceOf(ValidationException.class)
                .hasMessage("catalog ivm: default-database is the in-memory catalog's; give the wrapped catalog's as"
                        + " wrapped.default-database");
        assertThatThrownBy(() -> tEnv.executeSql("CREATE CATALOG ivm WITH ('type' = 'flink-ivm', 'colour' = 'red')"))
                .rootCause()
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Unsupported options")
                .hasMessageContaining("colour");
    }

    private IvmCatalog catalog(String name) {
        Catalog c = tEnv.getCatalog(name).orElseThrow();
        assertThat(c).isInstanceOf(IvmCatalog.class);
        return (IvmCatalog) c;
    }
}

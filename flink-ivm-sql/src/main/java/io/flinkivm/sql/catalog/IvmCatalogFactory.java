package io.flinkivm.sql.catalog;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CommonCatalogOptions;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * Creates an {@link IvmCatalog} for {@code CREATE CATALOG ivm WITH ('type' = 'flink-ivm', ...)}; Flink finds it
 * through {@code META-INF/services/org.apache.flink.table.factories.Factory}.
 *
 * <ul>
 *   <li>Without {@code wrapped.type} the tables live in memory, as in Flink's {@code generic_in_memory} catalog,
 *       in the database {@code default-database} (default {@value #DEFAULT_DATABASE_NAME}).
 *   <li>With {@code 'wrapped.type' = 'hive'} (or {@code jdbc}, {@code paimon}, any catalog type the session can
 *       create) the tables live in that catalog, created from the options that start with {@value
 *       #WRAPPED_PREFIX}, the prefix removed: {@code 'wrapped.type' = 'paimon', 'wrapped.warehouse' = '...'}.
 * </ul>
 */
@PublicEvolving
public final class IvmCatalogFactory implements CatalogFactory {

    /** The catalog type: {@code 'type' = 'flink-ivm'}. */
    public static final String IDENTIFIER = "flink-ivm";
    /** The prefix of the options of the wrapped catalog. */
    public static final String WRAPPED_PREFIX = "wrapped.";
    /** The in-memory catalog's database when {@code default-database} is not given. */
    public static final String DEFAULT_DATABASE_NAME = "default";

    public static final ConfigOption<String> DEFAULT_DATABASE = ConfigOptions.key("default-database")
            .stringType()
            .defaultValue(DEFAULT_DATABASE_NAME)
            .withDescription("The database of the in-memory catalog (without wrapped.type).");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(DEFAULT_DATABASE);
    }

    @Override
    public Catalog createCatalog(Context context) {
        FactoryUtil.CatalogFactoryHelper helper = FactoryUtil.createCatalogFactoryHelper(this, context);
        helper.validateExcept(WRAPPED_PREFIX);
        Map<String, String> wrapped = new HashMap<>();
        context.getOptions().forEach((key, value) -> {
            if (key.startsWith(WRAPPED_PREFIX)) {
                wrapped.put(key.substring(WRAPPED_PREFIX.length()), value);
            }
        });
        Catalog base;
        if (wrapped.isEmpty()) {
            base = new GenericInMemoryCatalog(
                    context.getName(), helper.getOptions().get(DEFAULT_DATABASE));
        } else {
            String type = wrapped.get(CommonCatalogOptions.CATALOG_TYPE.key());
            if (type == null) {
                throw new ValidationException("catalog " + context.getName() + ": the options " + WRAPPED_PREFIX
                        + "* describe the catalog that holds the tables and need " + WRAPPED_PREFIX + "type (e.g. '"
                        + WRAPPED_PREFIX + "type' = 'hive'); got " + wrapped.keySet());
            }
            if (type.equals(IDENTIFIER)) {
                throw new ValidationException(
                        "catalog " + context.getName() + ": a " + IDENTIFIER + " catalog cannot wrap another one");
            }
            if (context.getOptions().containsKey(DEFAULT_DATABASE.key())) {
                throw new ValidationException("catalog " + context.getName() + ": default-database is the in-memory"
                        + " catalog's; give the wrapped catalog's as " + WRAPPED_PREFIX + "default-database");
            }
            base = FactoryUtil.createCatalog(
                    context.getName(), wrapped, context.getConfiguration(), context.getClassLoader());
        }
        return new IvmCatalog(context.getName(), base, context.getClassLoader());
    }
}

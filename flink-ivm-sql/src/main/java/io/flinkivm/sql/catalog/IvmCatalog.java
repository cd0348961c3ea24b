package io.flinkivm.sql.catalog;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogModel;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ModelChange;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.ModelAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.ModelNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionAlreadyExistsException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException;
import org.apache.flink.table.catalog.exceptions.ProcedureNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.catalog.exceptions.TablePartitionedException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FunctionDefinitionFactory;
import org.apache.flink.table.procedures.Procedure;

/**
 * flink-ivm's catalog for the SQL Client and the SQL Gateway ({@code CREATE CATALOG ivm WITH ('type' =
 * 'flink-ivm')}, {@link IvmCatalogFactory}): its tables live in the catalog it wraps (an in-memory one, as
 * Flink's {@code generic_in_memory}, or any catalog its {@code wrapped.*} options create: Hive, JDBC, Paimon),
 * and its database {@value #SYS} holds the procedures {@value #MAINTAIN_VIEW} and {@value #EXPLAIN_VIEW}
 * ({@code CALL ivm.sys.maintain_view(query => '...', sink => 'table')}).
 *
 * <p>A procedure sees no session, only a fresh execution environment (FLIP-311), so each builds its own
 * table environment with this very catalog in it, under the same name ({@link #tableEnvironment}): the
 * queries read the tables of this catalog, resolved against its default database, and no others.
 */
@PublicEvolving
public final class IvmCatalog implements Catalog {

    /** The database of the procedures. */
    public static final String SYS = "sys";
    /** {@link MaintainViewProcedure}'s name. */
    public static final String MAINTAIN_VIEW = "maintain_view";
    /** {@link ExplainViewProcedure}'s name. */
    public static final String EXPLAIN_VIEW = "explain_view";

    private final String name;
    private final Catalog base;
    private final ClassLoader classLoader;
    private final Map<String, Procedure> procedures;
    private boolean open;

    /**
     * @param name the catalog's name in the session, under which the procedures register it again
     * @param base the catalog that holds the tables
     * @param classLoader the session's class loader (it sees the jars of {@code ADD JAR})
     */
    public IvmCatalog(String name, Catalog base, ClassLoader classLoader) {
        this.name = name;
        this.base = base;
        this.classLoader = classLoader;
        this.procedures =
                Map.of(MAINTAIN_VIEW, new MaintainViewProcedure(this), EXPLAIN_VIEW, new ExplainViewProcedure(this));
    }

    public String name() {
        return name;
    }

    /** The catalog that holds the tables. */
    public Catalog base() {
        return base;
    }

    /**
     * A table environment over {@code env} for a procedure: this catalog registered under its name and current,
     * its default database current, factories found with the session's class loader.
     */
    StreamTableEnvironment tableEnvironment(StreamExecutionEnvironment env) {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(
                env,
                EnvironmentSettings.newInstance().withClassLoader(classLoader).build());
        tEnv.registerCatalog(name, this);
        tEnv.useCatalog(name);
        tEnv.useDatabase(getDefaultDatabase());
        return tEnv;
    }

    /**
     * Makes {@code env}'s job carry the jars it needs on the cluster: flink-ivm's own jar and the session's
     * ({@code ADD JAR}), which the SQL Gateway puts into {@code pipeline.jars} for its own DML only, added to
     * those configured; and the state backend {@code stateBackend}, unless null.
     */
    void configureJob(StreamExecutionEnvironment env, String stateBackend) {
        Set<String> jars = new LinkedHashSet<>(
                env.getConfiguration().getOptional(PipelineOptions.JARS).orElse(List.of()));
        jars.addAll(jarsOf(classLoader, IvmCatalog.class));
        Configuration job = new Configuration();
        job.set(PipelineOptions.JARS, new ArrayList<>(jars));
        if (stateBackend != null) {
            job.set(StateBackendOptions.STATE_BACKEND, stateBackend);
        }
        env.configure(job);
    }

    /**
     * The jar files a job needs beside the cluster's own: the one {@code type} was loaded from, then those of
     * {@code loader} and of its ancestors that list theirs ({@link URLClassLoader}), as {@code file:} URLs. A class
     * loaded from a directory (a build's output) brings none.
     */
    static List<String> jarsOf(ClassLoader loader, Class<?> type) {
        Set<String> out = new LinkedHashSet<>();
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source != null && source.getLocation() != null) {
            addJar(out, source.getLocation());
        }
        for (ClassLoader l = loader; l != null; l = l.getParent()) {
            if (l instanceof URLClassLoader u) {
                for (URL url : u.getURLs()) {
                    addJar(out, url);
                }
            }
        }
        return new ArrayList<>(out);
    }

    private static void addJar(Set<String> out, URL url) {
        if (!"file".equals(url.getProtocol())) {
            return;
        }
        try {
            File f = new File(url.toURI());
            if (f.isFile() && f.getName().endsWith(".jar")) {
                out.add(f.toURI().toString());
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            // Not a file path: nothing to ship.
        }
    }

    /** The tables of the default database, for a message that says what a procedure can see. */
    String visibleTables() {
        String db = getDefaultDatabase();
        try {
            List<String> tables = new ArrayList<>(base.listTables(db));
            tables.sort(null);
            return "catalog " + name + "'s procedures read the tables of " + name + " only, by default from its"
                    + " database " + db + (tables.isEmpty() ? " (no tables)" : " (" + String.join(", ", tables) + ")")
                    + "; the session's other catalogs and temporary tables are not visible to them";
        } catch (DatabaseNotExistException | CatalogException e) {
            return "catalog " + name + "'s procedures read the tables of " + name + " only";
        }
    }

    // ---- the sys database and its procedures ----

    @Override
    public List<String> listProcedures(String dbName) throws DatabaseNotExistException, CatalogException {
        if (!dbName.equals(SYS)) {
            return base.listProcedures(dbName);
        }
        Set<String> out = new LinkedHashSet<>(List.of(EXPLAIN_VIEW, MAINTAIN_VIEW));
        if (base.databaseExists(SYS)) {
            out.addAll(base.listProcedures(SYS));
        }
        return new ArrayList<>(out);
    }

    @Override
    public Procedure getProcedure(ObjectPath procedurePath) throws ProcedureNotExistException, CatalogException {
        Procedure p =
                procedurePath.getDatabaseName().equals(SYS) ? procedures.get(procedurePath.getObjectName()) : null;
        return p != null ? p : base.getProcedure(procedurePath);
    }

    @Override
    public List<String> listDatabases() throws CatalogException {
        Set<String> out = new LinkedHashSet<>(base.listDatabases());
        out.add(SYS);
        return new ArrayList<>(out);
    }

    @Override
    public CatalogDatabase getDatabase(String databaseName) throws DatabaseNotExistException, CatalogException {
        if (databaseName.equals(SYS) && !base.databaseExists(SYS)) {
            return new CatalogDatabaseImpl(Map.of(), "flink-ivm's procedures: " + MAINTAIN_VIEW + ", " + EXPLAIN_VIEW);
        }
        return base.getDatabase(databaseName);
    }

    @Override
    public boolean databaseExists(String databaseName) throws CatalogException {
        return databaseName.equals(SYS) || base.databaseExists(databaseName);
    }

    @Override
    public List<String> listTables(String databaseName) throws DatabaseNotExistException, CatalogException {
        return sysOnlyHere(databaseName) ? List.of() : base.listTables(databaseName);
    }

    @Override
    public List<String> listViews(String databaseName) throws DatabaseNotExistException, CatalogException {
        return sysOnlyHere(databaseName) ? List.of() : base.listViews(databaseName);
    }

    @Override
    public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException, CatalogException {
        if (sysOnlyHere(tablePath.getDatabaseName())) {
            throw new CatalogException("the database " + SYS + " of catalog " + name + " holds flink-ivm's procedures"
                    + " only; create " + tablePath.getObjectName() + " in another database, e.g. "
                    + getDefaultDatabase());
        }
        base.createTable(tablePath, table, ignoreIfExists);
    }

    /** Whether {@code databaseName} is the procedures' database that only this catalog (not the base) has. */
    private boolean sysOnlyHere(String databaseName) {
        return databaseName.equals(SYS) && !base.databaseExists(SYS);
    }

    // ---- the rest is the base catalog's ----

    /** Opens the base catalog, once: a procedure registers this catalog in a table environment of its own. */
    @Override
    public synchronized void open() throws CatalogException {
        if (!open) {
            base.open();
            open = true;
        }
    }

    @Override
    public synchronized void close() throws CatalogException {
        if (open) {
            open = false;
            base.close();
        }
    }

    @Override
    public Optional<Factory> getFactory() {
        return base.getFactory();
    }

    @Override
    public Optional<FunctionDefinitionFactory> getFunctionDefinitionFactory() {
        return base.getFunctionDefinitionFactory();
    }

    @Override
    public String getDefaultDatabase() throws CatalogException {
        return base.getDefaultDatabase();
    }

    @Override
    public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException, CatalogException {
        base.createDatabase(name, database, ignoreIfExists);
    }

    @Override
    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException, CatalogException {
        base.dropDatabase(name, ignoreIfNotExists, cascade);
    }

    @Override
    public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists)
            throws DatabaseNotExistException, CatalogException {
        base.alterDatabase(name, newDatabase, ignoreIfNotExists);
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath tablePath) throws TableNotExistException, CatalogException {
        return base.getTable(tablePath);
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath tablePath, long timestamp)
            throws TableNotExistException, CatalogException {
        return base.getTable(tablePath, timestamp);
    }

    @Override
    public boolean tableExists(ObjectPath tablePath) throws CatalogException {
        return base.tableExists(tablePath);
    }

    @Override
    public List<String> listMaterializedTables(String databaseName) throws DatabaseNotExistException, CatalogException {
        return base.listMaterializedTables(databaseName);
    }

    @Override
    public void dropTable(ObjectPath tablePath, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        base.dropTable(tablePath, ignoreIfNotExists);
    }

    @Override
    public void renameTable(ObjectPath tablePath, String newTableName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException, CatalogException {
        base.renameTable(tablePath, newTableName, ignoreIfNotExists);
    }

    @Override
    public void alterTable(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        base.alterTable(tablePath, newTable, ignoreIfNotExists);
    }

    @Override
    public void alterTable(
            ObjectPath tablePath, CatalogBaseTable newTable, List<TableChange> tableChanges, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        base.alterTable(tablePath, newTable, tableChanges, ignoreIfNotExists);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        return base.listPartitions(tablePath);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws TableNotExistException, TableNotPartitionedException, PartitionSpecInvalidException,
                    CatalogException {
        return base.listPartitions(tablePath, partitionSpec);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(ObjectPath tablePath, List<Expression> filters)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        return base.listPartitionsByFilter(tablePath, filters);
    }

    @Override
    public CatalogPartition getPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        return base.getPartition(tablePath, partitionSpec);
    }

    @Override
    public boolean partitionExists(ObjectPath tablePath, CatalogPartitionSpec partitionSpec) throws CatalogException {
        return base.partitionExists(tablePath, partitionSpec);
    }

    @Override
    public void createPartition(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogPartition partition,
            boolean ignoreIfExists)
            throws TableNotExistException, TableNotPartitionedException, PartitionSpecInvalidException,
                    PartitionAlreadyExistsException, CatalogException {
        base.createPartition(tablePath, partitionSpec, partition, ignoreIfExists);
    }

    @Override
    public void dropPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec, boolean ignoreIfNotExists)
            throws PartitionNotExistException, CatalogException {
        base.dropPartition(tablePath, partitionSpec, ignoreIfNotExists);
    }

    @Override
    public void alterPartition(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogPartition newPartition,
            boolean ignoreIfNotExists)
            throws PartitionNotExistException, CatalogException {
        base.alterPartition(tablePath, partitionSpec, newPartition, ignoreIfNotExists);
    }

    @Override
    public List<String> listFunctions(String dbName) throws DatabaseNotExistException, CatalogException {
        return base.listFunctions(dbName);
    }

    @Override
    public CatalogFunction getFunction(ObjectPath functionPath) throws FunctionNotExistException, CatalogException {
        return base.getFunction(functionPath);
    }

    @Override
    public boolean functionExists(ObjectPath functionPath) throws CatalogException {
        return base.functionExists(functionPath);
    }

    @Override
    public void createFunction(ObjectPath functionPath, CatalogFunction function, boolean ignoreIfExists)
            throws FunctionAlreadyExistException, DatabaseNotExistException, CatalogException {
        base.createFunction(functionPath, function, ignoreIfExists);
    }

    @Override
    public void alterFunction(ObjectPath functionPath, CatalogFunction newFunction, boolean ignoreIfNotExists)
            throws FunctionNotExistException, CatalogException {
        base.alterFunction(functionPath, newFunction, ignoreIfNotExists);
    }

    @Override
    public void dropFunction(ObjectPath functionPath, boolean ignoreIfNotExists)
            throws FunctionNotExistException, CatalogException {
        base.dropFunction(functionPath, ignoreIfNotExists);
    }

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath tablePath)
            throws TableNotExistException, CatalogException {
        return base.getTableStatistics(tablePath);
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath tablePath)
            throws TableNotExistException, CatalogException {
        return base.getTableColumnStatistics(tablePath);
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        return base.getPartitionStatistics(tablePath, partitionSpec);
    }

    @Override
    public List<CatalogTableStatistics> bulkGetPartitionStatistics(
            ObjectPath tablePath, List<CatalogPartitionSpec> partitionSpecs)
            throws PartitionNotExistException, CatalogException {
        return base.bulkGetPartitionStatistics(tablePath, partitionSpecs);
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        return base.getPartitionColumnStatistics(tablePath, partitionSpec);
    }

    @Override
    public List<CatalogColumnStatistics> bulkGetPartitionColumnStatistics(
            ObjectPath tablePath, List<CatalogPartitionSpec> partitionSpecs)
            throws PartitionNotExistException, CatalogException {
        return base.bulkGetPartitionColumnStatistics(tablePath, partitionSpecs);
    }

    @Override
    public void alterTableStatistics(
            ObjectPath tablePath, CatalogTableStatistics tableStatistics, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        base.alterTableStatistics(tablePath, tableStatistics, ignoreIfNotExists);
    }

    @Override
    public void alterTableColumnStatistics(
            ObjectPath tablePath, CatalogColumnStatistics columnStatistics, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException, TablePartitionedException {
        base.alterTableColumnStatistics(tablePath, columnStatistics, ignoreIfNotExists);
    }

    @Override
    public void alterPartitionStatistics(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogTableStatistics partitionStatistics,
            boolean ignoreIfNotExists)
            throws PartitionNotExistException, CatalogException {
        base.alterPartitionStatistics(tablePath, partitionSpec, partitionStatistics, ignoreIfNotExists);
    }

    @Override
    public void alterPartitionColumnStatistics(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogColumnStatistics columnStatistics,
            boolean ignoreIfNotExists)
            throws PartitionNotExistException, CatalogException {
        base.alterPartitionColumnStatistics(tablePath, partitionSpec, columnStatistics, ignoreIfNotExists);
    }

    @Override
    public List<String> listModels(String databaseName) throws DatabaseNotExistException, CatalogException {
        return base.listModels(databaseName);
    }

    @Override
    public CatalogModel getModel(ObjectPath modelPath) throws ModelNotExistException, CatalogException {
        return base.getModel(modelPath);
    }

    @Override
    public boolean modelExists(ObjectPath modelPath) throws CatalogException {
        return base.modelExists(modelPath);
    }

    @Override
    public void dropModel(ObjectPath modelPath, boolean ignoreIfNotExists)
            throws ModelNotExistException, CatalogException {
        base.dropModel(modelPath, ignoreIfNotExists);
    }

    @Override
    public void renameModel(ObjectPath modelPath, String newModelName, boolean ignoreIfNotExists)
            throws ModelNotExistException, ModelAlreadyExistException, CatalogException {
        base.renameModel(modelPath, newModelName, ignoreIfNotExists);
    }

    @Override
    public void createModel(ObjectPath modelPath, CatalogModel model, boolean ignoreIfExists)
            throws ModelAlreadyExistException, DatabaseNotExistException, CatalogException {
        base.createModel(modelPath, model, ignoreIfExists);
    }

    @Override
    public void alterModel(ObjectPath modelPath, CatalogModel newModel, boolean ignoreIfNotExists)
            throws ModelNotExistException, CatalogException {
        base.alterModel(modelPath, newModel, ignoreIfNotExists);
    }

    @Override
    public void alterModel(
            ObjectPath modelPath, CatalogModel newModel, List<ModelChange> modelChanges, boolean ignoreIfNotExists)
            throws ModelNotExistException, CatalogException {
        base.alterModel(modelPath, newModel, modelChanges, ignoreIfNotExists);
    }
}

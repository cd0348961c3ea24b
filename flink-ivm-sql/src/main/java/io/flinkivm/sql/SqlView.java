package io.flinkivm.sql;

import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.sql.translate.SqlTranslation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.api.Table;

/**
 * A SQL query maintained by flink-ivm ({@link io.flinkivm.sql.FlinkIvmSql#sql}).
 *
 * <p>{@link #table()} is the view's <b>changelog</b>, with the SELECT list's columns and types: at each
 * trigger (every {@code snapshotEvery} inserts of an ingest subtask, on a snapshot period, at the end of
 * bounded input), the rows whose aggregate changed since the previous trigger, each once: {@code +I}
 * for a new group, {@code +U} for a changed one. The grouped columns are the table's primary key
 * (upsert semantics), so the table can be written to any sink that takes updates, e.g.
 * {@code upsert-kafka}, or queried further with Flink SQL. A global aggregate (no grouped column) has
 * no key: its table is a retract stream ({@code -U} with the old value, then {@code +U}).
 * Complete triggers (with end markers and cuts) are on {@link IvmJob#results()} of {@link #job()}.
 *
 * @param table the maintained view, as a changelog table
 * @param translation the SQL's translation (query, semiring, payloads, result columns)
 * @param job the flink-ivm job (plan, layout, result records)
 * @param deadLetters rows that could not become inserts and updates that failed, with their reasons
 */
public record SqlView(Table table, SqlTranslation translation, IvmJob<?> job, DataStream<DeadLetter> deadLetters) {

    /** The translation, then the plan's classification and operators, as {@code explain --sql} prints them. */
    public String explain() {
        return translation.explain(job.plan().inputs()) + "\n" + job.plan().explain()
                + job.layout().explain();
    }
}

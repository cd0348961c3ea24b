package io.flinkivm.sql;

import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.sql.translate.SqlTranslation;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.api.Table;

/**
 * A SQL query maintained by flink-ivm ({@link FlinkIvmSql#sql}).
 *
 * <p>{@link #table()} is the view's <b>changelog</b> (never snapshots), with the SELECT list's columns
 * and types: at each trigger (every {@code snapshotEvery} inserts of an ingest subtask, on a snapshot
 * period, at the end of bounded input), the rows that changed since the previous trigger, each once.
 * Grouped by columns that cannot be NULL, the grouped columns are the table's primary key and the
 * changelog is an upsert stream: {@code +I} for a new group, {@code +U} for a changed one, {@code -D} for
 * a group whose rows were all deleted (tables with deletes); so the table can be written to any sink
 * that takes updates, e.g. {@code upsert-kafka}, or queried further with Flink SQL. Without such a key
 * (a global aggregate, or a grouped column that can be NULL) it is a retract stream ({@code -U} with
 * the old value, then {@code +U}). {@code SELECT DISTINCT} rows come ({@code +I}) and go ({@code -D});
 * a plain SELECT is a bag, insert-only over insert-only tables ({@code -D} for each copy that leaves
 * otherwise). Complete triggers (with end markers and cuts) are on {@link IvmJob#results()} of
 * {@link #job()}.
 *
 * @param table the maintained view, as a changelog table
 * @param translation the SQL's translation (query, semiring, payloads, result columns)
 * @param job the flink-ivm job (plan, layout, result records)
 * @param deadLetters rows that could not become inserts and updates that failed, with their reasons
 */
@PublicEvolving
public record SqlView(Table table, SqlTranslation translation, IvmJob<?> job, DataStream<DeadLetter> deadLetters) {

    /** The translation, then the plan's classification and operators, as {@code explain --sql} prints them. */
    public String explain() {
        return translation.explain(job.plan().inputs()) + "\n" + job.explain();
    }
}

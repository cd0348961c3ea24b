/**
 * Event-time windows of a relation, as Flink SQL's window table functions define them: which windows
 * a timestamp belongs to ({@link io.flinkivm.core.window.WindowSpec}) and a relation's window columns
 * and late rows ({@link io.flinkivm.core.window.WindowAssignment}). Pure Java.
 */
package io.flinkivm.core.window;

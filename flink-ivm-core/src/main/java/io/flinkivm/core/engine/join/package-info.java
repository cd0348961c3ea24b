/**
 * What the joins above the border share: join records and their store interface, the join layout and
 * its walks, the compiled join tree; the families live in {@code border}, {@code qtree}, {@code fallback}, {@code cyclic}.
 */
package io.flinkivm.core.engine.join;

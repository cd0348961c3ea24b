/**
 * The cyclic plan's join above the border: the bags of its tree decomposition, compiled to generic-join
 * programs, and their maps.
 */
package io.flinkivm.core.engine.cyclic;

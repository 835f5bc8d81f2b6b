package dev.parallax.planner.statement;

import dev.parallax.engine.catalog.ColumnDefault;
import dev.parallax.engine.sequence.SequenceOptions;

/**
 * A column whose values come from a sequence the table owns: {@code serial} / {@code bigserial} /
 * {@code smallserial} ({@code kind} NONE: an ordinary default {@code nextval(...)}), or
 * {@code GENERATED ALWAYS | BY DEFAULT AS IDENTITY [(sequence options)]}; {@code sequenceName} is
 * the options' {@code SEQUENCE NAME} (pg_dump writes it), null for PostgreSQL's {@code table_column_seq}.
 */
public record IdentityClause(ColumnDefault.Identity kind, SequenceOptions.Declared options, String sequenceName) {
}

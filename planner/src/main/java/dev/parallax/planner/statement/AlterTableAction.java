package dev.parallax.planner.statement;

import dev.parallax.engine.catalog.ColumnDefinition;

import java.util.List;

/** One action of an {@link AlterTableStatement}. */
public sealed interface AlterTableAction {
    /**
     * {@code ADD [COLUMN] [IF NOT EXISTS] column type [DEFAULT expression] [NOT NULL] [PRIMARY KEY | UNIQUE]}:
     * {@code defaultExpression} as written or null; {@code identity} for serial and identity columns
     * or null; {@code constraints} the keys written on the column.
     */
    record AddColumn(ColumnDefinition column, String defaultExpression, IdentityClause identity,
                     List<TableConstraint> constraints, boolean ifNotExists) implements AlterTableAction {
        public AddColumn {
            constraints = List.copyOf(constraints);
        }
    }

    /**
     * {@code ADD [CONSTRAINT name] PRIMARY KEY (columns) | UNIQUE (columns)}, as pg_dump adds keys
     * after loading the data; {@code position} is where the constraint starts in the statement.
     */
    record AddKey(TableConstraint constraint, int position) implements AlterTableAction {
    }

    /** {@code DROP [COLUMN] [IF EXISTS] column [RESTRICT | CASCADE]}. */
    record DropColumn(String columnName, boolean ifExists, boolean cascade) implements AlterTableAction {
    }

    /** {@code ALTER [COLUMN] column SET DEFAULT expression | DROP DEFAULT} ({@code expressionText} null). */
    record SetDefault(String columnName, String expressionText) implements AlterTableAction {
    }

    /**
     * {@code ALTER [COLUMN] column ADD GENERATED ALWAYS | BY DEFAULT AS IDENTITY [(sequence options)]}, as
     * pg_dump gives an identity column its sequence after creating the table.
     */
    record AddIdentity(String columnName, IdentityClause identity) implements AlterTableAction {
    }

    /** {@code ALTER [COLUMN] column SET NOT NULL | DROP NOT NULL} ({@code notNull} false). */
    record SetNotNull(String columnName, boolean notNull) implements AlterTableAction {
    }

    /** {@code ADD [CONSTRAINT name] CHECK (condition)}: the rows the table holds are checked first. */
    record AddCheck(CheckClause check) implements AlterTableAction {
    }

    /** {@code ADD [CONSTRAINT name] FOREIGN KEY (columns) REFERENCES ...}: the rows the table holds are checked first. */
    record AddForeignKey(ForeignKeyClause foreignKey) implements AlterTableAction {
    }

    /** {@code DROP CONSTRAINT [IF EXISTS] name [RESTRICT | CASCADE]}. */
    record DropConstraint(String name, boolean ifExists) implements AlterTableAction {
    }
}

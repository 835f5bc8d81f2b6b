package dev.parallax.engine.catalog;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tables of one database, by (case-folded) name. Thread-safe: DDL from any session is atomic
 * per table, and {@link #version()} increases on every change so cached plans can notice.
 */
public final class Catalog {
    private final ConcurrentMap<String, Table> tables = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();

    /** Adds {@code table}; fails with 42P07 when the name is taken (the table is then not added). */
    public void addTable(Table table) {
        if (tables.putIfAbsent(table.name(), table) != null) {
            throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", table.name());
        }
        version.incrementAndGet();
    }

    /** The table named {@code name}, or null. */
    public Table findTable(String name) {
        return tables.get(name);
    }

    /** The table named {@code name}; 42P01 when there is none. */
    public Table table(String name) {
        Table table = tables.get(name);
        if (table == null) {
            throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
        }
        return table;
    }

    /** Removes the table and frees its storage; returns false when no such table exists. */
    public boolean dropTable(String name) {
        Table removed = tables.remove(name);
        if (removed == null) {
            return false;
        }
        version.incrementAndGet();
        removed.storage().close();
        return true;
    }

    /** Records a change to a table's definition or options (e.g. ALTER TABLE ... SET). */
    public void touch() {
        version.incrementAndGet();
    }

    public List<Table> tables() {
        List<Table> list = new ArrayList<>(tables.values());
        list.sort(Comparator.comparing(Table::name));
        return list;
    }

    public long version() {
        return version.get();
    }
}

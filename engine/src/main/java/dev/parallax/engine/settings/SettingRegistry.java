package dev.parallax.engine.settings;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Every setting Parallax knows, with PostgreSQL's defaults where PostgreSQL has the setting. */
public final class SettingRegistry {
    private static final Map<String, SettingDefinition> DEFINITIONS = new LinkedHashMap<>();

    static {
        add(SettingDefinition.integer("max_parallel_workers_per_gather", 2, 0, 1024,
                "Sets the maximum number of parallel processes per executor node."));
        add(SettingDefinition.integer("max_parallel_workers", 8, 0, 1024,
                "Sets the maximum number of parallel workers that can be active at one time."));
        add(SettingDefinition.integer("max_parallel_maintenance_workers", 2, 0, 1024,
                "Sets the maximum number of parallel processes per maintenance operation."));
        add(SettingDefinition.real("parallel_setup_cost", 1000, 0, Double.MAX_VALUE,
                "Sets the planner's estimate of the cost of starting up worker processes for parallel query."));
        add(SettingDefinition.real("parallel_tuple_cost", 0.1, 0, Double.MAX_VALUE,
                "Sets the planner's estimate of the cost of passing each tuple (row) from worker to leader backend."));
        add(SettingDefinition.real("seq_page_cost", 1.0, 0, Double.MAX_VALUE,
                "Sets the planner's estimate of the cost of a sequentially fetched disk page."));
        add(SettingDefinition.real("cpu_tuple_cost", 0.01, 0, Double.MAX_VALUE,
                "Sets the planner's estimate of the cost of processing each tuple (row)."));
        add(SettingDefinition.real("random_page_cost", 4.0, 0, Double.MAX_VALUE,
                "Sets the planner's estimate of the cost of a nonsequentially fetched disk page."));
        add(SettingDefinition.real("cpu_index_tuple_cost", 0.005, 0, Double.MAX_VALUE,
                "Sets the planner's estimate of the cost of processing each index entry during an index scan."));
        add(SettingDefinition.real("cpu_operator_cost", 0.0025, 0, Double.MAX_VALUE,
                "Sets the planner's estimate of the cost of processing each operator or function call."));
        add(SettingDefinition.memory("min_parallel_table_scan_size", "8MB", 8192, 0, Integer.MAX_VALUE / 3,
                "Sets the minimum amount of table data for a parallel scan."));
        add(SettingDefinition.bool("parallel_leader_participation", true,
                "Controls whether Gather and Gather Merge also run subplans."));
        add(SettingDefinition.enumeration("debug_parallel_query", "off", List.of("off", "on", "regress"),
                "Forces the planner's use parallel query nodes."));
        add(SettingDefinition.enumeration("force_parallel_mode", "off", List.of("off", "on", "regress"),
                "Old name of debug_parallel_query."));
        add(SettingDefinition.memory("work_mem", "4MB", 1024, 64, Integer.MAX_VALUE,
                "Sets the maximum memory to be used for query workspaces."));
        add(SettingDefinition.real("hash_mem_multiplier", 2.0, 1.0, 1000.0,
                "Multiple of work_mem to use for hash tables."));
        add(SettingDefinition.memory("maintenance_work_mem", "64MB", 1024, 1024, Integer.MAX_VALUE,
                "Sets the maximum memory to be used for maintenance operations."));
        add(SettingDefinition.bool("enable_partition_pruning", true,
                "Enables plan-time and execution-time partition pruning."));
        add(SettingDefinition.bool("enable_indexscan", true,
                "Enables the planner's use of index-scan plans."));
        add(SettingDefinition.bool("enable_abbreviated_keys", true,
                "Parallax: sorts compare packed 64-bit prefix keys before full values."));
        add(SettingDefinition.string("temp_file_directory", "",
                "Parallax: directory for the temporary files of sorts, hash joins and hash aggregations that spill (empty: java.io.tmpdir)."));
        add(SettingDefinition.integer("parallel_scan_chunk_pages", 0, 0, 1 << 20,
                "Parallax: pages a parallel scan worker claims at a time; 0 sizes chunks by table size and ramps down near the end."));
        add(SettingDefinition.enumeration("client_min_messages", "notice",
                List.of("debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"),
                "Sets the message levels that are sent to the client."));
        add(SettingDefinition.string("application_name", "", "Sets the application name to be reported."));
        add(SettingDefinition.string("session_authorization", "parallax",
                "Sets the session user name (the connecting user under the wire server)."));
        add(SettingDefinition.string("server_version", "15.0 (Parallax)", "Shows the server version."));
        add(SettingDefinition.string("client_encoding", "UTF8", "Sets the client's character set encoding."));
        add(SettingDefinition.string("DateStyle", "ISO, MDY", "Sets the display format for date and time values."));
        // UTC by default, whatever the host's zone (PostgreSQL takes initdb's guess of it): a session's
        // times do not depend on where the engine runs; a wire client's startup TimeZone (pgJDBC sends the JVM's) sets it.
        add(SettingDefinition.timeZone("TimeZone", "UTC", "Sets the time zone for displaying and interpreting time stamps."));
        add(SettingDefinition.integer("extra_float_digits", 1, -15, 3, "Sets the number of digits displayed for floating-point values."));
        add(SettingDefinition.string("search_path", "\"$user\", public", "Sets the schema search order for names that are not schema-qualified."));
        // Database-wide (PostgreSQL's sighup context): shown here, changed through Database.autovacuum().configure.
        add(SettingDefinition.bool("autovacuum", true, "Starts the autovacuum subprocess."));
        add(SettingDefinition.integer("autovacuum_vacuum_threshold", 50, 0, Integer.MAX_VALUE,
                "Minimum number of tuple updates or deletes prior to vacuum."));
        add(SettingDefinition.real("autovacuum_vacuum_scale_factor", 0.2, 0, 100,
                "Number of tuple updates or deletes prior to vacuum as a fraction of reltuples."));
        add(SettingDefinition.integer("autovacuum_naptime", 60, 1, Integer.MAX_VALUE / 1000,
                "Time to sleep between autovacuum runs (s)."));
        add(SettingDefinition.integer("autovacuum_max_workers", 3, 1, 262143,
                "Sets the maximum number of simultaneously running autovacuum worker processes."));
        add(SettingDefinition.integer("statement_timeout", 0, 0, Integer.MAX_VALUE, "Sets the maximum allowed duration of any statement (ms)."));
        // What a pg_dump script sets before loading, with PostgreSQL's defaults: accepted so the script
        // runs, though Parallax has no locks, transactions left idle, functions, XML, row security,
        // tablespaces or access methods for them to act on; backslashes in strings are always literal.
        add(SettingDefinition.integer("lock_timeout", 0, 0, Integer.MAX_VALUE,
                "Sets the maximum allowed duration of any wait for a lock (ms)."));
        add(SettingDefinition.integer("idle_in_transaction_session_timeout", 0, 0, Integer.MAX_VALUE,
                "Sets the maximum allowed idle time between queries, when in a transaction (ms)."));
        add(SettingDefinition.enumeration("standard_conforming_strings", "on", List.of("on"),
                "Causes '...' strings to treat backslashes literally (always, in Parallax)."));
        add(SettingDefinition.bool("check_function_bodies", true, "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE."));
        add(SettingDefinition.enumeration("xmloption", "content", List.of("content", "document"),
                "Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or content fragments."));
        add(SettingDefinition.bool("row_security", true, "Enable row security."));
        add(SettingDefinition.string("default_tablespace", "", "Sets the default tablespace to create tables and indexes in."));
        add(SettingDefinition.string("default_table_access_method", "heap", "Sets the default table access method for new tables."));
    }

    private SettingRegistry() {
    }

    private static void add(SettingDefinition definition) {
        DEFINITIONS.put(definition.name().toLowerCase(Locale.ROOT), definition);
    }

    /** The definition of {@code name} (case-insensitive), or null when Parallax has no such setting. */
    public static SettingDefinition find(String name) {
        return DEFINITIONS.get(name.toLowerCase(Locale.ROOT));
    }

    public static Collection<SettingDefinition> all() {
        return DEFINITIONS.values();
    }
}

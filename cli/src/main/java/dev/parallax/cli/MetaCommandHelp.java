package dev.parallax.cli;

/** The text of {@code \?}: the backslash commands the shell understands, grouped as psql does. */
final class MetaCommandHelp {
    private MetaCommandHelp() {
    }

    static final String TEXT = """
            General
              \\q                     quit parallax
              \\? [commands]          show help on backslash commands

            Query Buffer and Input/Output
              \\copy TABLE FROM FILE [WITH] (OPTIONS)
                                     load a file into a table, as COPY FROM does
              \\i FILE                execute commands from file
              \\o [FILE]              send all query results to file (\\o alone: back to stdout)
              \\echo [-n] [STRING]    write string to standard output (-n for no newline)

            Informational
              (options: + = additional detail)
              \\d[+]                  list tables and views
              \\d[+] NAME             describe table or view (system views too, e.g. pg_stat_user_tables)
              \\dt[+]                 list tables
              \\dv[+]                 list views
              \\di[+]                 list indexes
              \\l[+]                  list databases
              \\conninfo              display information about the current database

            Formatting
              \\pset [NAME [VALUE]]   set table output option
                                     (format aligned|unaligned|csv, null STRING, pager on|off)
              \\timing [on|off]       toggle timing of commands
              \\x [on|off|auto]       toggle expanded output

            Variables
              \\set [NAME [VALUE]]    set internal variable, or list all if no parameters
              \\unset NAME            unset (delete) internal variable
              :NAME, :'NAME', :"NAME" in SQL: the value, as a literal, as an identifier

            """;
}

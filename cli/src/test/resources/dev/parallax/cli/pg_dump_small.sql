--
-- PostgreSQL database dump
--

\restrict xKERHwim6YoRYrifZjZCmJH0erNNsbLJXM9dBM7jEz6DGDYpPvsVYosE2ijy6NH

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: customers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.customers (
    id integer NOT NULL,
    name text NOT NULL,
    balance numeric(12,2),
    joined date,
    last_seen timestamp without time zone,
    active boolean
);


--
-- Name: TABLE customers; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.customers IS 'people who order';


--
-- Name: empty_table; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.empty_table (
    a integer,
    b text
);


--
-- Name: orders; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.orders (
    order_id integer NOT NULL,
    customer_id integer,
    amount numeric(10,2),
    note text,
    placed timestamp without time zone,
    shipped boolean
);


--
-- Name: tags; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tags (
    id integer NOT NULL,
    label text
);


--
-- Name: tags_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.tags_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: tags_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.tags_id_seq OWNED BY public.tags.id;


--
-- Name: tags id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tags ALTER COLUMN id SET DEFAULT nextval('public.tags_id_seq'::regclass);


--
-- Data for Name: customers; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.customers (id, name, balance, joined, last_seen, active) FROM stdin;
1	Ann	120.50	2024-01-15	2024-03-01 10:15:00	t
2	Bob O'Brien	\N	2023-12-31	\N	f
3	tab\tand\\backslash	-3.25	\N	2024-02-29 23:59:59.5	\N
4	Zoë	0.00	2000-02-29	1999-12-31 00:00:00	t
5	two\nlines	9999999999.99	1970-01-01	1970-01-01 00:00:00.000001	f
\.


--
-- Data for Name: empty_table; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.empty_table (a, b) FROM stdin;
\.


--
-- Data for Name: orders; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.orders (order_id, customer_id, amount, note, placed, shipped) FROM stdin;
10	1	99.99	first	2024-03-01 10:16:00	t
11	1	5.00	\N	2024-03-02 08:00:00	f
12	4	1000.00		\N	\N
13	\N	-0.01	\\N is not null	2024-12-31 23:59:59	t
\.


--
-- Data for Name: tags; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.tags (id, label) FROM stdin;
1	red
2	\N
3	blue
\.


--
-- Name: tags_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.tags_id_seq', 3, true);


--
-- Name: customers customers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.customers
    ADD CONSTRAINT customers_pkey PRIMARY KEY (id);


--
-- Name: orders orders_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.orders
    ADD CONSTRAINT orders_pkey PRIMARY KEY (order_id);


--
-- Name: tags tags_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tags
    ADD CONSTRAINT tags_pkey PRIMARY KEY (id);


--
-- PostgreSQL database dump complete
--

\unrestrict xKERHwim6YoRYrifZjZCmJH0erNNsbLJXM9dBM7jEz6DGDYpPvsVYosE2ijy6NH


package io.flinkivm.examples.nexmark;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.apache.flink.table.api.DataTypes.TIMESTAMP;

import io.flinkivm.examples.tables.GeneratedTable;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.types.Row;

/**
 * The Nexmark benchmark's tables ({@code person}, {@code auction}, {@code bid}, with Nexmark's columns and
 * types), generated as Nexmark's generator does it in spirit: event i of a seeded stream is a person, an
 * auction or a bid in Nexmark's proportions 1 : 3 : 46 (the first of every 50 events a person, the next
 * three auctions), each drawn from its own random seeded with the seed and i. Person and auction ids count
 * up from 1000; categories are 10 to 14; states AZ, CA, ID, OR, WA and WY; prices spread over six orders
 * of magnitude; the {@code extra} text pads a row to Nexmark's average sizes (200, 500 and 100 bytes). An
 * auction's seller is, three times in four, a hot seller (the first of the latest hundred persons), else
 * one of the latest 1,000; a bid is, half of the time, on a hot auction (the first of the latest hundred),
 * else on one of the latest 100; its bidder, three times in four, the second of the latest hundred
 * persons. Unlike Nexmark's generator, which may name ids a few events ahead, every reference is to a
 * person or auction already generated: the keys {@code person.id} and {@code auction.id} hold, and every
 * seller, bidder and auction of a bid exists. Time advances 0.1 ms per event (Nexmark's default 10,000
 * events per second) from {@link #BASE_TIME}.
 */
public final class NexmarkTables {
    public static final String PERSON = "person";
    public static final String AUCTION = "auction";
    public static final String BID = "bid";

    /** Nexmark's proportions of persons, auctions and bids among the events. */
    public static final int PERSON_PROPORTION = 1;

    public static final int AUCTION_PROPORTION = 3;
    public static final int BID_PROPORTION = 46;
    static final int TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;

    public static final long FIRST_PERSON_ID = 1000;
    public static final long FIRST_AUCTION_ID = 1000;
    public static final long FIRST_CATEGORY_ID = 10;
    static final int CATEGORIES = 5;
    /** The time of event 0. */
    public static final LocalDateTime BASE_TIME = LocalDateTime.of(2024, 1, 1, 0, 0);

    private static final int HOT_RATIO = 100;
    private static final int ACTIVE_PEOPLE = 1000;
    private static final int IN_FLIGHT_AUCTIONS = 100;
    private static final List<String> STATES = List.of("AZ", "CA", "ID", "OR", "WA", "WY");
    private static final List<String> CITIES = List.of(
            "Phoenix",
            "Los Angeles",
            "San Francisco",
            "Boise",
            "Portland",
            "Bend",
            "Redmond",
            "Seattle",
            "Kent",
            "Cheyenne");
    private static final List<String> FIRST_NAMES =
            List.of("Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter");
    private static final List<String> LAST_NAMES =
            List.of("Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris");
    private static final List<String> HOT_CHANNELS = List.of("Google", "Facebook", "Baidu", "Apple");
    private static final int CHANNELS = 10_000;

    private NexmarkTables() {}

    /** Table {@code name} without rows: its name, type and key ({@code bid} has none). */
    public static GeneratedTable empty(String name) {
        return switch (name) {
            case PERSON ->
                new GeneratedTable(
                        PERSON,
                        ROW(
                                FIELD("id", BIGINT().notNull()),
                                FIELD("name", STRING()),
                                FIELD("emailAddress", STRING()),
                                FIELD("creditCard", STRING()),
                                FIELD("city", STRING()),
                                FIELD("state", STRING()),
                                FIELD("dateTime", TIMESTAMP(3)),
                                FIELD("extra", STRING())),
                        List.of("id"),
                        List.of());
            case AUCTION ->
                new GeneratedTable(
                        AUCTION,
                        ROW(
                                FIELD("id", BIGINT().notNull()),
                                FIELD("itemName", STRING()),
                                FIELD("description", STRING()),
                                FIELD("initialBid", BIGINT()),
                                FIELD("reserve", BIGINT()),
                                FIELD("dateTime", TIMESTAMP(3)),
                                FIELD("expires", TIMESTAMP(3)),
                                FIELD("seller", BIGINT()),
                                FIELD("category", BIGINT()),
                                FIELD("extra", STRING())),
                        List.of("id"),
                        List.of());
            case BID ->
                new GeneratedTable(
                        BID,
                        ROW(
                                FIELD("auction", BIGINT()),
                                FIELD("bidder", BIGINT()),
                                FIELD("price", BIGINT()),
                                FIELD("channel", STRING()),
                                FIELD("url", STRING()),
                                FIELD("dateTime", TIMESTAMP(3)),
                                FIELD("extra", STRING())),
                        List.of(),
                        List.of());
            default ->
                throw new IllegalArgumentException(
                        "no Nexmark table " + name + "; the tables are person, auction and bid");
        };
    }

    /**
     * The rows of the named tables among the first {@code events} events of the stream seeded with
     * {@code seed}, in event order, one table per name in the order given. Events of other tables are
     * skipped without being made; the same arguments give the same rows whatever else is asked for.
     */
    public static List<GeneratedTable> generate(long events, long seed, List<String> tables) {
        if (events < 0) {
            throw new IllegalArgumentException("events must be >= 0, got " + events);
        }
        List<List<Row>> rows = new ArrayList<>();
        int[] index = {-1, -1, -1};
        for (String t : tables) {
            empty(t); // checks the name
            int kind = kind(t);
            if (index[kind] >= 0) {
                throw new IllegalArgumentException("table " + t + " is asked for twice");
            }
            index[kind] = rows.size();
            rows.add(new ArrayList<>());
        }
        for (long e = 0; e < events; e++) {
            int kind = kindOf(e);
            if (index[kind] < 0) {
                continue;
            }
            SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + e);
            rows.get(index[kind])
                    .add(
                            switch (kind) {
                                case 0 -> person(e, random);
                                case 1 -> auction(e, random);
                                default -> bid(e, random);
                            });
        }
        List<GeneratedTable> out = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            out.add(empty(tables.get(i)).withRows(rows.get(i)));
        }
        return out;
    }

    /** The number of events whose rows of the named tables are about {@code rows} (at least one event). */
    public static long eventsFor(long rows, List<String> tables) {
        int share = 0;
        for (String t : tables) {
            share += switch (kind(t)) {
                case 0 -> PERSON_PROPORTION;
                case 1 -> AUCTION_PROPORTION;
                default -> BID_PROPORTION;
            };
        }
        return Math.max(1, Math.round((double) rows * TOTAL_PROPORTION / share));
    }

    private static int kind(String table) {
        return switch (table) {
            case PERSON -> 0;
            case AUCTION -> 1;
            case BID -> 2;
            default -> throw new IllegalArgumentException("no Nexmark table " + table);
        };
    }

    /** 0 (person), 1 (auction) or 2 (bid): the kind of event {@code e}. */
    static int kindOf(long e) {
        long offset = e % TOTAL_PROPORTION;
        return offset < PERSON_PROPORTION ? 0 : offset < PERSON_PROPORTION + AUCTION_PROPORTION ? 1 : 2;
    }

    /** The last person (counted from 0) generated at or before event {@code e}. */
    static long lastPerson(long e) {
        long offset = Math.min(e % TOTAL_PROPORTION, PERSON_PROPORTION - 1);
        return e / TOTAL_PROPORTION * PERSON_PROPORTION + offset;
    }

    /** The last auction (counted from 0) generated at or before event {@code e}; -1 if none. */
    static long lastAuction(long e) {
        long epoch = e / TOTAL_PROPORTION;
        long offset = e % TOTAL_PROPORTION;
        if (offset < PERSON_PROPORTION) {
            return epoch * AUCTION_PROPORTION - 1;
        }
        return epoch * AUCTION_PROPORTION + Math.min(offset - PERSON_PROPORTION, AUCTION_PROPORTION - 1);
    }

    static LocalDateTime time(long e) {
        return BASE_TIME.plusNanos(e / 10 * 1_000_000L);
    }

    private static Row person(long e, SplittableRandom r) {
        String name = pick(FIRST_NAMES, r) + " " + pick(LAST_NAMES, r);
        String email = text(r, 7) + "@" + text(r, 5) + ".com";
        String card = String.format(
                "%04d %04d %04d %04d", r.nextInt(10_000), r.nextInt(10_000), r.nextInt(10_000), r.nextInt(10_000));
        String city = pick(CITIES, r);
        String state = pick(STATES, r);
        int size = 8 + name.length() + email.length() + card.length() + city.length() + state.length();
        return Row.of(FIRST_PERSON_ID + lastPerson(e), name, email, card, city, state, time(e), extra(r, size, 200));
    }

    private static Row auction(long e, SplittableRandom r) {
        long seller = r.nextInt(4) > 0 ? hot(lastPerson(e), 0) : active(lastPerson(e), ACTIVE_PEOPLE, r);
        long category = FIRST_CATEGORY_ID + r.nextInt(CATEGORIES);
        long initialBid = price(r);
        String itemName = text(r, 20);
        String description = text(r, 100);
        long reserve = initialBid + price(r);
        // About as long as it takes for IN_FLIGHT_AUCTIONS more auctions to come, on average.
        long horizonMillis = IN_FLIGHT_AUCTIONS * TOTAL_PROPORTION / AUCTION_PROPORTION / 10;
        LocalDateTime expires = time(e).plusNanos((1 + r.nextLong(2 * horizonMillis)) * 1_000_000L);
        int size = 8 + itemName.length() + description.length() + 40;
        return Row.of(
                FIRST_AUCTION_ID + lastAuction(e),
                itemName,
                description,
                initialBid,
                reserve,
                time(e),
                expires,
                FIRST_PERSON_ID + seller,
                category,
                extra(r, size, 500));
    }

    private static Row bid(long e, SplittableRandom r) {
        long auction = r.nextInt(2) > 0 ? hot(lastAuction(e), 0) : active(lastAuction(e), IN_FLIGHT_AUCTIONS, r);
        long bidder = r.nextInt(4) > 0 ? hot(lastPerson(e), 1) : active(lastPerson(e), ACTIVE_PEOPLE, r);
        long price = price(r);
        String channel;
        String url;
        if (r.nextInt(2) > 0) {
            int i = r.nextInt(HOT_CHANNELS.size());
            channel = HOT_CHANNELS.get(i);
            url = "https://www.nexmark.com/" + channel.toLowerCase(java.util.Locale.ROOT) + "/item.htm?query=1";
        } else {
            int i = r.nextInt(CHANNELS);
            channel = "channel-" + i;
            url = "https://www.nexmark.com/" + text(r, 5) + "/" + text(r, 5) + "/item.htm?query=1&channel_id=" + i;
        }
        return Row.of(
                FIRST_AUCTION_ID + auction, FIRST_PERSON_ID + bidder, price, channel, url, time(e), extra(r, 32, 100));
    }

    /** The hot one of the latest hundred ids up to {@code last} (the first, or the second with {@code plus} 1). */
    private static long hot(long last, int plus) {
        return Math.min(last, last / HOT_RATIO * HOT_RATIO + plus);
    }

    /** One of the latest {@code window} ids up to {@code last}, uniformly. */
    private static long active(long last, int window, SplittableRandom r) {
        long n = Math.min(last + 1, window);
        return last + 1 - n + r.nextLong(n);
    }

    private static long price(SplittableRandom r) {
        return Math.round(Math.pow(10.0, r.nextDouble() * 6.0) * 100.0);
    }

    private static String pick(List<String> values, SplittableRandom r) {
        return values.get(r.nextInt(values.size()));
    }

    /** Lower-case letters and the odd blank, 3 to {@code maxLength - 1} of them, trimmed. */
    private static String text(SplittableRandom r, int maxLength) {
        int length = 3 + r.nextInt(maxLength - 3);
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = r.nextInt(13) == 0 ? ' ' : (char) ('a' + r.nextInt(26));
        }
        return new String(chars).trim();
    }

    /** Letters that bring a row of {@code size} bytes to {@code average} bytes on average (±20 %). */
    private static String extra(SplittableRandom r, int size, int average) {
        if (size >= average) {
            return "";
        }
        int wanted = average - size;
        int delta = Math.round(wanted * 0.2f);
        int length = wanted - delta + (delta == 0 ? 0 : r.nextInt(2 * delta));
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (char) ('a' + r.nextInt(26));
        }
        return new String(chars);
    }
}

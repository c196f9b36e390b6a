/* Dealing shoe (RULES H1, H2): one card per DEAL, read at the gate before it leaves; the cut card is
 * recognised by its own sensor and ejected into the cut-card slot; the gate sensor says when it is empty.
 *
 * The optional reader/loader board sits on SPI (see README): 'R',0 -> card (0 unread, 1..52 = suit * 13 +
 * rank + 1, suits C D H S, ranks A..K); 'C',0,0 -> cards in the shoe (u16 LE, 0xFFFF unknown);
 * 'L',decks,cut_lo,cut_hi -> a machine-fed shoe loads. Without a board every card is "unread".
 */
#include "device.h"
#include "hal.h"

#ifndef FEED_TIMEOUT_MS
#define FEED_TIMEOUT_MS 800  /* a card that has not cleared the exit beam by then is jammed */
#endif
#define FEED_CARD 1
#define FEED_CUT 2

const uint8_t device_kind = FB_DEVICEKIND_SHOE;
const uint16_t device_capabilities = FB_CAPABILITY_READS_CARDS | FB_CAPABILITY_CUT_CARD | FB_CAPABILITY_DOOR_SENSOR;

static uint8_t feeding, exit_seen, present, cut_out, feed_jam;
static uint16_t dealt;
static uint32_t feed_started;

static uint8_t board(uint8_t command, uint8_t a, uint8_t b, uint8_t c) {
    spi_select(1);
    spi_transfer(command);
    uint8_t reply = spi_transfer(a);
    if (command != 'R') reply = spi_transfer(b);
    if (command == 'L') spi_transfer(c);
    spi_select(0);
    return reply;
}

static uint16_t board_count(void) {
    spi_select(1);
    spi_transfer('C');
    uint16_t low = spi_transfer(0);
    uint16_t high = spi_transfer(0);
    spi_select(0);
    return (uint16_t)(low | (high << 8));
}

static void new_shoe(void) {
    dealt = 0;
    cut_out = 0;
    feed_jam = 0;
    meter_add(M_SHOES_LOADED, 1);
}

void device_boot(void) {
    feeding = 0;
    FEED_OFF();
    present = CARD_PRESENT();
    dealt = 0;
    cut_out = 0;
    feed_jam = 0;
}

static void start_feed(uint8_t what, uint32_t now) {
    feeding = what;
    exit_seen = 0;
    feed_started = now;
    FEED_ON();
}

static void card_left(uint8_t what) {
    if (what == FEED_CARD && CUT_AT_GATE() && !cut_out) {
        uint8_t args[2] = {(uint8_t)dealt, (uint8_t)(dealt >> 8)};
        cut_out = 1;
        meter_add(M_CUT_CARDS, 1);
        event_emit(FB_MSG_CUT_CARD_REACHED, args);
        start_feed(FEED_CUT, hal_millis());
        return;
    }
    if (!CARD_PRESENT() && present) {
        present = 0;
        event_emit(FB_MSG_SHOE_EMPTY, 0);
    }
}

void device_poll(uint32_t now) {
    (void)now;
    if (feeding) {
        uint8_t in_beam = CARD_IN_EXIT();
        if (in_beam) {
            exit_seen = 1;
        } else if (exit_seen) {
            uint8_t what = feeding;
            FEED_OFF();
            feeding = 0;
            card_left(what);
        }
        if (feeding && (int32_t)(hal_millis() - feed_started) > FEED_TIMEOUT_MS) {  /* now may predate the start */
            FEED_OFF();
            feeding = 0;
            feed_jam = 1;
            meter_add(M_JAMS, 1);
            event_emit(FB_MSG_JAM, 0);
        }
        return;
    }
    uint8_t p = CARD_PRESENT();
    if (p && !present) new_shoe();           /* an operator loaded the shoe */
    if (!p && present) event_emit(FB_MSG_SHOE_EMPTY, 0);  /* cards taken out by hand */
    present = p;
    if (feed_jam && door_open) {             /* opening the door to clear a feed jam clears it */
        feed_jam = 0;
        event_emit(FB_MSG_JAM_CLEARED, 0);
    }
}

static uint8_t deal(uint8_t *reply) {
    for (uint8_t waited = 0; feeding && waited < 15; waited++) {  /* the last card is still leaving */
        uint32_t t = hal_millis();
        while (hal_millis() == t) device_poll(t);
        device_poll(hal_millis());
    }
    if (feeding) return reply[0] = FB_STATUS_BUSY, 1;
    uint8_t blocked = common_blocked();
    if (blocked) return reply[0] = blocked, 1;
    if (feed_jam) return reply[0] = FB_STATUS_JAMMED, 1;
    if (!CARD_PRESENT()) return reply[0] = FB_STATUS_EMPTY, 1;
    if (event_room() < 4) return reply[0] = FB_STATUS_QUEUE_FULL, 1;
    uint8_t card = board('R', 0, 0, 0);
    if (card == 0 || card > 52) {
        card = 0;
        meter_add(M_CARDS_MISREAD, 1);
    }
    dealt++;
    meter_add(M_CARDS_DEALT, 1);
    uint32_t number = event_emit(FB_MSG_CARD_DEALT, &card);
    start_feed(FEED_CARD, hal_millis());
    reply[0] = FB_STATUS_OK;
    for (uint8_t i = 0; i < 4; i++) reply[1 + i] = (uint8_t)(number >> (8 * i));
    return 5;
}

static uint8_t load(const uint8_t *args, uint8_t *reply) {
    uint8_t decks = args[0];
    uint16_t cut = (uint16_t)(args[1] | (args[2] << 8));
    uint16_t cards = (uint16_t)(decks * 52);
    if (decks < 1 || decks > 12 || cut >= cards) return reply[0] = FB_STATUS_BAD_PAYLOAD, 1;
    if (!door_open && (jammed || feed_jam)) return reply[0] = FB_STATUS_JAMMED, 1;
    if (feeding) return reply[0] = FB_STATUS_BUSY, 1;
    board('L', decks, args[1], args[2]);
    new_shoe();
    present = CARD_PRESENT();
    reply[0] = FB_STATUS_OK;
    reply[1] = (uint8_t)cards;
    reply[2] = (uint8_t)(cards >> 8);
    return 3;
}

uint8_t device_execute(uint8_t type, const uint8_t *args, uint8_t *reply, uint32_t now) {
    (void)now;
    if (type == FB_MSG_DEAL) return deal(reply);
    if (type == FB_MSG_LOAD) return load(args, reply);
    return 0;
}

uint8_t device_state(void) {
    if (jammed || feed_jam) return 2;
    return feeding ? 1 : 0;
}

uint16_t device_flags(void) {
    uint16_t flags = 0;
    if (door_open) flags |= 0x0001;
    if (jammed || feed_jam) flags |= 0x0002;
    if (!CARD_PRESENT()) flags |= 0x0004;
    if (cut_out) flags |= 0x0008;
    return flags;
}

uint16_t device_cards(void) {
    uint16_t count = board_count();
    return count == 0xFFFF ? 0 : count;
}

void device_safe(void) {
    /* the card in flight finishes by itself (device_poll keeps running); nothing else moves */
}

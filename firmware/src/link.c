/* The device end of PROTOCOL.md: framing, replay cache, handshake, event queue, heartbeat, meters.
 *
 * Everything here is the same for the three devices; device_*.c adds the commands and the hardware.
 */
#include <avr/eeprom.h>
#include <string.h>

#include "device.h"
#include "hal.h"

#define FW_MAJOR 1
#define FW_MINOR 0
#define FW_PATCH 0

#define RX_MAX 64          /* longest encoded frame accepted; longer ones are dropped (HELLO says so) */
#define MAX_RX_PAYLOAD (RX_MAX - 2 - 6)
#define RAW_MAX 48         /* longest frame this device sends (METERS: 4 + 33 + 2) */
#define QUEUE_SIZE 64
#define EVENT_WINDOW 8
#define EVENT_ARGS 5
#define RESEND_MS 30
#define RESEND_SAFE_MS 250
#define HEARTBEAT_MS 2000
#define INTER_BYTE_MS 50
#define TX_RESERVE 48      /* events leave this much TX room for a reply */

/* -- state kept for the simulator harness and for a debugger: counters only, never read by the host -- */
struct diag {
    uint8_t ready;                 /* 0xA5 once boot finished */
    uint32_t boot_id;
    uint32_t next_event_no;
    uint32_t acked_event_no;
    uint16_t executed[16];         /* per command, see cmd_index() */
    uint16_t replays;
    uint16_t bad_frames;
    uint16_t events_sent;
    uint16_t event_resends;
    uint16_t overflowed;
    uint8_t queued;
    uint8_t safe;
} __attribute__((packed));
struct diag fb_diag;

/* -- meters: RAM copy kept over warm resets (checked), EEPROM copy written in the background -- */
#define EE_METERS 0
#define EE_MAGIC 32
#define EE_UID 36
#define EE_BOOTS 44
#define METER_MAGIC 0x4642u
static uint32_t meters[8] __attribute__((section(".noinit")));
static uint16_t meters_check __attribute__((section(".noinit")));
static uint8_t flush_cursor, meters_dirty;

static uint8_t unique_id[8];
static uint32_t boot_id;
static uint8_t reset_cause;
static uint32_t booted_at;
static uint32_t rng_s[4];

/* -- link state (RAM, lost on reset) -- */
static uint8_t host_ready;
static uint8_t safe;
static uint32_t last_host_ms;
static uint8_t cache_valid, cache_seq, cache_len;
static uint8_t cache[RAW_MAX];
static uint8_t rx[RX_MAX];
static uint8_t rx_len, rx_overflow;
static uint32_t last_byte_ms;
static uint8_t reboot_pending;

struct event {
    uint8_t type;
    uint8_t args[EVENT_ARGS];
    uint8_t sent;
    uint16_t sent_ms;
};
static struct event queue[QUEUE_SIZE];
static uint8_t q_head, q_count;
static uint32_t next_event_no, acked_event_no;
static uint16_t pending_overflow;

uint8_t door_open, jammed;

/* ---------------------------------------------------------------------------------------------- */
static uint16_t crc16(const uint8_t *data, uint8_t len) {
    uint16_t crc = 0xFFFF;
    while (len--) {
        crc ^= (uint16_t)(*data++) << 8;
        for (uint8_t bit = 0; bit < 8; bit++) crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

static uint16_t meters_sum(void) {
    return crc16((const uint8_t *)meters, sizeof meters) ^ METER_MAGIC;
}

void meter_add(uint8_t index, uint16_t amount) {
    meters[index] += amount;
    meters_check = meters_sum();
    meters_dirty = 1;
}

/* One EEPROM byte per call, most significant byte of a meter first, so a power cut mid-update leaves a
 * value between the old and the new one: the meters stay monotonic. */
static void meters_flush_step(void) {
    if (!meters_dirty || !eeprom_is_ready()) return;
    for (uint8_t tries = 0; tries < 32; tries++) {
        uint8_t meter = flush_cursor >> 2, byte = 3 - (flush_cursor & 3);
        flush_cursor = (flush_cursor + 1) & 31;
        uint8_t *addr = (uint8_t *)(EE_METERS + meter * 4 + byte);
        uint8_t value = (uint8_t)(meters[meter] >> (8 * byte));
        if (eeprom_read_byte(addr) != value) {
            eeprom_write_byte(addr, value);
            return;
        }
    }
    meters_dirty = 0;  /* a whole pass found nothing to write */
}

static uint32_t rotl(uint32_t x, uint8_t k) { return (x << k) | (x >> (32 - k)); }

uint32_t rng_next(void) {  /* xoshiro128** */
    uint32_t result = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 9;
    rng_s[2] ^= rng_s[0]; rng_s[3] ^= rng_s[1]; rng_s[1] ^= rng_s[2]; rng_s[0] ^= rng_s[3];
    rng_s[2] ^= t; rng_s[3] = rotl(rng_s[3], 11);
    return result;
}

static void boot(void) {
    reset_cause = hal_reset_cause();
    uint32_t boots = eeprom_read_dword((uint32_t *)EE_BOOTS) + 1;
    eeprom_update_dword((uint32_t *)EE_BOOTS, boots);
    uint32_t seed = hal_entropy() ^ (boots * 0x9E3779B9UL);
    for (uint8_t i = 0; i < 4; i++) {  /* splitmix32 expands the seed */
        seed += 0x9E3779B9UL;
        uint32_t z = seed;
        z = (z ^ (z >> 16)) * 0x85EBCA6BUL;
        z = (z ^ (z >> 13)) * 0xC2B2AE35UL;
        rng_s[i] = z ^ (z >> 16);
    }
    do { boot_id = rng_next(); } while (boot_id == 0);

    if (eeprom_read_word((uint16_t *)EE_MAGIC) != METER_MAGIC) {  /* first boot of this chip */
        memset(meters, 0, sizeof meters);
        eeprom_update_block(meters, (void *)EE_METERS, sizeof meters);
        uint32_t a = rng_next(), b = rng_next();
        uint8_t uid[8] = {'A', 'V', 'R', device_kind, (uint8_t)a, (uint8_t)(a >> 8), (uint8_t)(a >> 16), (uint8_t)b};
        eeprom_update_block(uid, (void *)EE_UID, 8);
        eeprom_update_word((uint16_t *)EE_MAGIC, METER_MAGIC);
    } else if (reset_cause == FB_RESETCAUSE_POWER_ON || meters_check != meters_sum()) {
        eeprom_read_block(meters, (const void *)EE_METERS, sizeof meters);  /* RAM copy not trusted */
    }
    meters_check = meters_sum();
    eeprom_read_block(unique_id, (const void *)EE_UID, 8);
    if (reset_cause != FB_RESETCAUSE_POWER_ON) {
        meter_add(M_RESETS, 1);
    }
    booted_at = hal_millis();
    last_host_ms = booted_at;
    next_event_no = 1;
    door_open = DOOR_OPEN();
    jammed = JAM_SENSOR();
    device_boot();
}

/* ---------------------------------------------------------------------------------------------- */
static void put_u32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_u32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* COBS-encode raw[0..len) plus its CRC into the TX ring. Returns 0 when there is no room (unless wait). */
static uint8_t send_raw(uint8_t *raw, uint8_t len, uint8_t wait, uint8_t reserve) {
    uint16_t crc = crc16(raw, len);
    raw[len++] = (uint8_t)(crc >> 8);
    raw[len++] = (uint8_t)crc;
    uint8_t need = (uint8_t)(len + 2);
    while (uart_tx_room() < need + reserve) {
        if (!wait) return 0;
        hal_watchdog_kick();
    }
    uint8_t code_at = 0, code = 1;
    uint8_t out[RAW_MAX + 4];
    uint8_t n = 1;
    for (uint8_t i = 0; i < len; i++) {
        if (raw[i] == 0) {
            out[code_at] = code;
            code_at = n++;
            code = 1;
        } else {
            out[n++] = raw[i];
            code++;
        }
    }
    out[code_at] = code;
    for (uint8_t i = 0; i < n; i++) uart_putc(out[i]);
    uart_putc(0);
    return 1;
}

static uint8_t header(uint8_t *raw, uint8_t type, uint8_t ack) {
    raw[0] = FB_PROTOCOL_VERSION; raw[1] = type; raw[2] = 0; raw[3] = ack;
    return 4;
}

static void send_nak(uint8_t seq, uint8_t status, uint8_t rejected) {
    uint8_t raw[10];
    uint8_t n = header(raw, FB_MSG_NAK, seq);
    raw[n++] = status;
    raw[n++] = rejected;
    send_raw(raw, n, 1, 0);
}

/* -- events -------------------------------------------------------------------------------------- */
uint8_t event_room(void) { return (uint8_t)(QUEUE_SIZE - q_count); }

static uint8_t args_len(uint8_t type) {
    switch (type) {
    case FB_MSG_CARD_DEALT: case FB_MSG_REEL_HOME_FAILED: return 1;
    case FB_MSG_CUT_CARD_REACHED: case FB_MSG_SHUFFLE_COMPLETE: case FB_MSG_HAND_DEALT:
    case FB_MSG_QUEUE_OVERFLOW: return 2;
    case FB_MSG_REEL_STOPPED: return 3;
    case FB_MSG_DECK_VERIFIED: return 5;
    default: return 0;
    }
}

static uint32_t push_event(uint8_t type, const uint8_t *args) {
    struct event *e = &queue[(uint8_t)(q_head + q_count) & (QUEUE_SIZE - 1)];
    e->type = type;
    memcpy(e->args, args, args_len(type));
    e->sent = 0;
    q_count++;
    return next_event_no++;
}

static void emit_overflow(void) {
    uint8_t args[2] = {(uint8_t)pending_overflow, (uint8_t)(pending_overflow >> 8)};
    pending_overflow = 0;
    push_event(FB_MSG_QUEUE_OVERFLOW, args);
}

uint32_t event_emit(uint8_t type, const uint8_t *args) {
    if (event_room() <= 1) {  /* the last slot is kept for QUEUE_OVERFLOW */
        if (pending_overflow < 0xFFFF) pending_overflow++;
        fb_diag.overflowed++;
        return 0;
    }
    if (pending_overflow) emit_overflow();
    return push_event(type, args);
}

static const char RANKS[] = "A23456789TJQK";
static const char SUITS[] = "CDHS";

static void send_event(uint8_t index, uint16_t now) {
    struct event *e = &queue[(uint8_t)(q_head + index) & (QUEUE_SIZE - 1)];
    uint8_t raw[RAW_MAX];
    uint8_t n = header(raw, e->type, 0);
    put_u32(raw + n, acked_event_no + 1 + index);
    n += 4;
    if (e->type == FB_MSG_CARD_DEALT) {
        uint8_t card = e->args[0];
        if (card == 0 || card > 52) {
            raw[n++] = 0;  /* unread: empty code */
        } else {
            char rank = RANKS[(card - 1) % 13], suit = SUITS[(card - 1) / 13];
            if (rank == 'T') {
                raw[n++] = 3; raw[n++] = '1'; raw[n++] = '0';
            } else {
                raw[n++] = 2; raw[n++] = (uint8_t)rank;
            }
            raw[n++] = (uint8_t)suit;
        }
    } else {
        uint8_t len = args_len(e->type);
        memcpy(raw + n, e->args, len);
        n += len;
    }
    if (!send_raw(raw, n, 0, TX_RESERVE)) return;
    if (e->sent) fb_diag.event_resends++;
    else fb_diag.events_sent++;
    e->sent = 1;
    e->sent_ms = now;
}

static void events_poll(uint32_t now) {
    if (!host_ready) return;
    if (pending_overflow && event_room() >= 1) emit_overflow();
    uint16_t interval = safe ? RESEND_SAFE_MS : RESEND_MS;
    uint8_t window = q_count < EVENT_WINDOW ? q_count : EVENT_WINDOW;
    for (uint8_t i = 0; i < window; i++) {
        struct event *e = &queue[(uint8_t)(q_head + i) & (QUEUE_SIZE - 1)];
        if (!e->sent || (uint16_t)((uint16_t)now - e->sent_ms) >= interval) send_event(i, (uint16_t)now);
    }
}

static void on_event_ack(const uint8_t *p, uint8_t len) {
    if (!host_ready || len != 4) return;
    uint32_t number = get_u32(p);
    if (number > acked_event_no) {
        if (number > next_event_no - 1) number = next_event_no - 1;
        while (acked_event_no < number) {
            acked_event_no++;
            q_head = (q_head + 1) & (QUEUE_SIZE - 1);
            q_count--;
        }
    }
}

/* -- commands ------------------------------------------------------------------------------------ */
static int8_t payload_len(uint8_t type) {  /* host commands in the message table, -1 for others */
    switch (type) {
    case FB_MSG_HELLO: case FB_MSG_VERIFY_DECK: case FB_MSG_DEAL_HANDS: return 2;
    case FB_MSG_PING: case FB_MSG_READ_METERS: case FB_MSG_RESET: case FB_MSG_DEAL: case FB_MSG_ROLL_DICE:
    case FB_MSG_HOME: return 0;
    case FB_MSG_EVENT_ACK: return 4;
    case FB_MSG_LOAD: return 3;
    case FB_MSG_SHUFFLE: return 1;
    case FB_MSG_SPIN: return 6;
    case FB_MSG_SET_DISPLAY: return 5;
    default: return -1;
    }
}

static uint8_t cmd_index(uint8_t type) {  /* 0x01-0x05 -> 1..5, 0x10.. -> 6.., 0x20.. -> 8.., 0x30.. -> 12.. */
    if (type < 0x10) return type;
    if (type < 0x20) return (uint8_t)(6 + type - 0x10);
    if (type < 0x30) return (uint8_t)(8 + type - 0x20);
    return (uint8_t)(12 + type - 0x30);
}

static void hello(uint8_t seq, const uint8_t *p, uint8_t len) {
    uint8_t flags = len == 2 ? p[1] : 0;
    if (flags & 0x01) cache_valid = 0;  /* NEW_SESSION */
    host_ready = 1;
    for (uint8_t i = 0; i < q_count; i++) queue[(uint8_t)(q_head + i) & (QUEUE_SIZE - 1)].sent = 0;
    uint8_t raw[RAW_MAX];
    uint8_t n = header(raw, FB_MSG_HELLO_REPLY, seq);
    raw[n++] = FB_STATUS_OK;
    raw[n++] = FB_PROTOCOL_VERSION;
    raw[n++] = device_kind;
    raw[n++] = FW_MAJOR; raw[n++] = FW_MINOR; raw[n++] = FW_PATCH;
    memcpy(raw + n, unique_id, 8); n += 8;
    raw[n++] = (uint8_t)device_capabilities; raw[n++] = (uint8_t)(device_capabilities >> 8);
    raw[n++] = MAX_RX_PAYLOAD; raw[n++] = 0;
    put_u32(raw + n, boot_id); n += 4;
    raw[n++] = reset_cause;
    put_u32(raw + n, next_event_no - 1); n += 4;
    put_u32(raw + n, acked_event_no); n += 4;
    send_raw(raw, n, 1, 0);
}

static uint8_t common_execute(uint8_t type, uint8_t *reply, uint32_t now) {
    switch (type) {
    case FB_MSG_PING: {
        uint8_t state = safe ? 3 : device_state();
        uint16_t flags = device_flags() | (safe ? 0x0020 : 0);
        reply[0] = FB_STATUS_OK;
        reply[1] = state;
        reply[2] = (uint8_t)flags; reply[3] = (uint8_t)(flags >> 8);
        reply[4] = q_count;
        put_u32(reply + 5, now - booted_at);
        uint16_t cards = device_cards();
        reply[9] = (uint8_t)cards; reply[10] = (uint8_t)(cards >> 8);
        return 11;
    }
    case FB_MSG_READ_METERS:
        reply[0] = FB_STATUS_OK;
        for (uint8_t i = 0; i < 8; i++) put_u32(reply + 1 + 4 * i, meters[i]);
        return 33;
    case FB_MSG_RESET:
        reply[0] = FB_STATUS_OK;
        reboot_pending = 1;
        return 1;
    default:
        return 0;
    }
}

static void on_frame(uint8_t *raw, uint8_t len, uint32_t now) {
    uint8_t type = raw[1], seq = raw[2];
    uint8_t *p = raw + 4;
    uint8_t plen = (uint8_t)(len - 6);
    last_host_ms = now;
    if (type == FB_MSG_EVENT_ACK) {
        on_event_ack(p, plen);
        safe = 0;
        return;
    }
    int8_t expected = payload_len(type);
    if (expected < 0 || seq == 0) {
        send_nak(seq, FB_STATUS_UNKNOWN_COMMAND, type);
    } else if (type == FB_MSG_HELLO) {
        hello(seq, p, plen);
    } else if (!host_ready) {
        send_nak(seq, FB_STATUS_NEED_HELLO, type);
    } else if (cache_valid && cache_seq == seq) {
        fb_diag.replays++;
        uint8_t copy[RAW_MAX];
        memcpy(copy, cache, cache_len);
        send_raw(copy, cache_len, 1, 0);
    } else {
        uint8_t n = header(cache, type | 0x80, seq);
        uint8_t *reply = cache + n;
        uint8_t rlen;
        if (plen != (uint8_t)expected) {
            reply[0] = FB_STATUS_BAD_PAYLOAD;
            rlen = 1;
        } else {
            fb_diag.executed[cmd_index(type)]++;
            if (M_COMMANDS != 0xFF) meter_add(M_COMMANDS, 1);
            rlen = common_execute(type, reply, now);
            if (!rlen) rlen = device_execute(type, p, reply, now);
            if (!rlen) {
                reply[0] = FB_STATUS_UNKNOWN_COMMAND;
                rlen = 1;
            }
        }
        cache_len = (uint8_t)(n + rlen);
        cache_seq = seq;
        cache_valid = 1;
        uint8_t copy[RAW_MAX];
        memcpy(copy, cache, cache_len);
        send_raw(copy, cache_len, 1, 0);
    }
    safe = 0;  /* any frame from the host ends the safe state (after a PING reported it) */
}

static void rx_byte(uint8_t byte, uint32_t now) {
    if ((rx_len || rx_overflow) && now - last_byte_ms > INTER_BYTE_MS) {  /* stale partial frame */
        rx_len = 0;
        rx_overflow = 0;
        fb_diag.bad_frames++;
    }
    last_byte_ms = now;
    if (byte != 0) {
        if (rx_len < RX_MAX) rx[rx_len++] = byte;
        else rx_overflow = 1;
        return;
    }
    uint8_t len = rx_len, overflow = rx_overflow;
    rx_len = 0;
    rx_overflow = 0;
    if (!len) return;
    if (overflow) {
        fb_diag.bad_frames++;
        return;
    }
    /* COBS decode in place */
    uint8_t in = 0, out = 0;
    while (in < len) {
        uint8_t code = rx[in];
        if ((uint16_t)in + code > len) { fb_diag.bad_frames++; return; }
        for (uint8_t i = 1; i < code; i++) rx[out++] = rx[in + i];
        in = (uint8_t)(in + code);
        if (code < 0xFF && in < len) rx[out++] = 0;
    }
    if (out < 6 || crc16(rx, (uint8_t)(out - 2)) != (uint16_t)((rx[out - 2] << 8) | rx[out - 1])
        || rx[0] != FB_PROTOCOL_VERSION) {
        fb_diag.bad_frames++;
        return;
    }
    on_frame(rx, out, now);
}

/* -- door and jam are the same on every device ---------------------------------------------------- */
uint8_t common_blocked(void) {
    common_poll_inputs();
    if (door_open) return FB_STATUS_DOOR_OPEN;
    if (jammed) return FB_STATUS_JAMMED;
    return FB_STATUS_OK;
}

void common_poll_inputs(void) {
    uint8_t door = DOOR_OPEN(), jam = JAM_SENSOR();
    if (door != door_open) {
        door_open = door;
        if (door && M_DOOR_OPENS != 0xFF) meter_add(M_DOOR_OPENS, 1);
        event_emit(door ? FB_MSG_DOOR_OPEN : FB_MSG_DOOR_CLOSED, 0);
    }
    if (jam != jammed) {
        jammed = jam;
        if (jam) meter_add(M_JAMS, 1);
        event_emit(jam ? FB_MSG_JAM : FB_MSG_JAM_CLEARED, 0);
    }
}

uint8_t link_is_safe(void) { return safe; }

int main(void) {
    hal_init();
    boot();
    fb_diag.boot_id = boot_id;
    fb_diag.ready = 0xA5;
    for (;;) {
        hal_watchdog_kick();
        uint32_t now = hal_millis();
        if (!safe && now - last_host_ms > HEARTBEAT_MS) {  /* before the bytes: a PING reports it first */
            safe = 1;
            device_safe();
        }
        int16_t byte;
        while ((byte = uart_getc()) >= 0) rx_byte((uint8_t)byte, now);
        if (reboot_pending && uart_tx_idle()) hal_reboot();
        common_poll_inputs();
        device_poll(now);
        events_poll(now);
        meters_flush_step();
        if (host_ready && !safe) LED_ON();
        else LED_OFF();
        fb_diag.next_event_no = next_event_no;
        fb_diag.acked_event_no = acked_event_no;
        fb_diag.queued = q_count;
        fb_diag.safe = safe;
        hal_idle();
    }
}

/* Automatic shuffler/dealer with a dice RNG (RULES H3).
 *
 * SHUFFLE runs the shuffle motor until the input tray is empty; every card crosses the counting beam on
 * the way (pin-change interrupt). DEAL_HANDS runs the deal motor; the interrupt stops it the moment the
 * hand's last card is counted. VERIFY_DECK compares the expected count with the last count.
 */
#include <avr/interrupt.h>
#include <util/atomic.h>

#include "device.h"
#include "hal.h"

#ifndef MOTION_TIMEOUT_MS
#define MOTION_TIMEOUT_MS 5000  /* a motor that runs this long without finishing is jammed */
#endif

const uint8_t device_kind = FB_DEVICEKIND_SHUFFLER;
const uint16_t device_capabilities = FB_CAPABILITY_DICE_RNG | FB_CAPABILITY_DECK_VERIFY | FB_CAPABILITY_HAND_DEAL
                                     | FB_CAPABILITY_DOOR_SENSOR;

enum { IDLE, SHUFFLING, DEALING };
static uint8_t motion, hands_left, hand_no, per_hand, motion_jam;
static uint16_t loaded;  /* cards in the machine, from the last count */
static uint32_t motion_started;

void device_boot(void) {
    motion = IDLE;
    SHUFFLE_MOTOR_OFF();
    DEAL_MOTOR_OFF();
    loaded = 0;
    motion_jam = 0;
}

static uint16_t pulses(void) {
    uint16_t n;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { n = counter_pulses; }
    return n;
}

static void start_hand(uint32_t now) {
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        counter_pulses = 0;
        counter_stop_at = per_hand;
    }
    motion_started = now;
    DEAL_MOTOR_ON();
}

static void stop_all(void) {
    SHUFFLE_MOTOR_OFF();
    DEAL_MOTOR_OFF();
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { counter_stop_at = 0; }
    motion = IDLE;
}

void device_poll(uint32_t now) {
    if (motion == SHUFFLING && !TRAY_HAS_CARDS()) {
        SHUFFLE_MOTOR_OFF();
        motion = IDLE;
        loaded = pulses();
        meter_add(M_SHUFFLES, 1);
        meter_add(M_CARDS_SHUFFLED, loaded);
        uint8_t args[2] = {(uint8_t)loaded, (uint8_t)(loaded >> 8)};
        event_emit(FB_MSG_SHUFFLE_COMPLETE, args);
    } else if (motion == DEALING && pulses() >= per_hand) {
        loaded -= per_hand;
        meter_add(M_HANDS_DEALT, 1);
        uint8_t args[2] = {++hand_no, per_hand};
        event_emit(FB_MSG_HAND_DEALT, args);
        if (--hands_left) start_hand(now);
        else motion = IDLE;
    }
    if (motion != IDLE && (int32_t)(now - motion_started) > MOTION_TIMEOUT_MS) {
        stop_all();
        motion_jam = 1;
        meter_add(M_JAMS, 1);
        event_emit(FB_MSG_JAM, 0);
    }
    if (motion_jam && door_open) {  /* opening the lid to clear the jam clears it */
        motion_jam = 0;
        event_emit(FB_MSG_JAM_CLEARED, 0);
    }
}

static uint8_t refused(void) {
    uint8_t blocked = common_blocked();
    if (blocked) return blocked;
    if (motion_jam) return FB_STATUS_JAMMED;
    if (motion != IDLE) return FB_STATUS_BUSY;
    if (event_room() < 10) return FB_STATUS_QUEUE_FULL;
    return FB_STATUS_OK;
}

uint8_t device_execute(uint8_t type, const uint8_t *args, uint8_t *reply, uint32_t now) {
    uint8_t status;
    switch (type) {
    case FB_MSG_SHUFFLE:
        if (args[0] < 1 || args[0] > 8) return reply[0] = FB_STATUS_BAD_PAYLOAD, 1;
        if ((status = refused())) return reply[0] = status, 1;
        ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { counter_pulses = 0; counter_stop_at = 0; }
        motion = SHUFFLING;
        motion_started = now;
        SHUFFLE_MOTOR_ON();
        return reply[0] = FB_STATUS_OK, 1;
    case FB_MSG_VERIFY_DECK: {
        if ((status = refused())) return reply[0] = status, 1;
        uint16_t expected = (uint16_t)(args[0] | (args[1] << 8));
        uint8_t ok = expected == loaded;
        meter_add(M_VERIFICATIONS, 1);
        if (!ok) meter_add(M_VERIFY_FAILURES, 1);
        uint8_t event[5] = {ok, args[0], args[1], (uint8_t)loaded, (uint8_t)(loaded >> 8)};
        event_emit(FB_MSG_DECK_VERIFIED, event);
        return reply[0] = FB_STATUS_OK, 1;
    }
    case FB_MSG_DEAL_HANDS:
        if (args[0] < 1 || args[0] > 9 || args[1] < 1 || args[1] > 13) return reply[0] = FB_STATUS_BAD_PAYLOAD, 1;
        if ((uint16_t)args[0] * args[1] > loaded) return reply[0] = FB_STATUS_EMPTY, 1;
        if ((status = refused())) return reply[0] = status, 1;
        hands_left = args[0];
        per_hand = args[1];
        hand_no = 0;
        motion = DEALING;
        start_hand(now);
        return reply[0] = FB_STATUS_OK, 1;
    case FB_MSG_ROLL_DICE:
        reply[0] = FB_STATUS_OK;
        for (uint8_t i = 0; i < 3; i++) {
            uint8_t r;
            do { r = (uint8_t)(rng_next() >> 24); } while (r >= 252);  /* 252 = 42 * 6: no bias */
            reply[1 + i] = (uint8_t)(r % 6 + 1);
        }
        meter_add(M_DICE_ROLLS, 1);
        return 4;
    default:
        return 0;
    }
}

uint8_t device_state(void) {
    if (jammed || motion_jam) return 2;
    return motion != IDLE ? 1 : 0;
}

uint16_t device_flags(void) {
    uint16_t flags = 0;
    if (door_open) flags |= 0x0001;
    if (jammed || motion_jam) flags |= 0x0002;
    return flags;
}

uint16_t device_cards(void) { return loaded; }

void device_safe(void) {
    /* the hand being dealt finishes in the interrupt; no further hand starts */
    if (motion == DEALING) hands_left = 1;
    if (motion == SHUFFLING) stop_all();
}

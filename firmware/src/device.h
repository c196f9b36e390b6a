/* What the protocol core (link.c) needs from a device build, and what it offers it. */
#pragma once

#include <stdint.h>

#include "fb_protocol.h"

/* meter positions (PROTOCOL.md section 7); 0xFF = this device has no such meter */
#if defined(DEVICE_SHOE)
enum { M_CARDS_DEALT, M_CARDS_MISREAD, M_SHOES_LOADED, M_CUT_CARDS, M_JAMS, M_DOOR_OPENS, M_RESETS, M_COMMANDS };
#elif defined(DEVICE_SHUFFLER)
enum { M_SHUFFLES, M_CARDS_SHUFFLED, M_VERIFICATIONS, M_VERIFY_FAILURES, M_HANDS_DEALT, M_DICE_ROLLS, M_JAMS,
       M_RESETS, M_DOOR_OPENS = 0xFF, M_COMMANDS = 0xFF };
#else
enum { M_SPINS, M_REEL_STOPS, M_HOME_FAILURES, M_DISPLAY_UPDATES, M_DOOR_OPENS, M_JAMS, M_RESETS, M_COMMANDS };
#endif

/* -- implemented once per device kind (device_shoe.c, device_shuffler.c, device_reels.c) -- */
extern const uint8_t device_kind;
extern const uint16_t device_capabilities;
void device_boot(void);                      /* RAM state after any reset */
void device_poll(uint32_t now);              /* sensors, motors, completions; runs every loop */
/* Execute a command of this kind. Writes the reply payload (status first) and returns its length;
 * returns 0 when the command is not one this device implements. */
uint8_t device_execute(uint8_t type, const uint8_t *args, uint8_t *reply, uint32_t now);
uint8_t device_state(void);                  /* idle, busy or fault (safe is the link's) */
uint16_t device_flags(void);                 /* StatusFlag bits except LINK_LOST */
uint16_t device_cards(void);
void device_safe(void);                      /* heartbeat lost: stop motors once in-flight work lands */

/* -- offered by the core -- */
uint32_t event_emit(uint8_t type, const uint8_t *args);  /* 0 when the queue is full (counted) */
uint8_t event_room(void);
void meter_add(uint8_t index, uint16_t amount);
uint32_t rng_next(void);
uint8_t link_is_safe(void);

/* shared physical inputs (every device has a door and a jam sensor) */
uint8_t common_blocked(void);                /* DOOR_OPEN or JAMMED status, or OK */
void common_poll_inputs(void);               /* door/jam edges to events */
extern uint8_t door_open, jammed;

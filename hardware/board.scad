// Layli board: the whole board, assembled or exploded (OpenSCAD). All sizes in mm.
//
// Every size comes from board-params.scad, generated from the board's profile by
// `layli hardware model PROFILE -o hardware/board-params.scad` (controller/hardware/body.py and
// plate.py: the same geometry the laser's drawings and the printed cups come from).
//
//   openscad -o board.png --imgsize=1600,900 hardware/board.scad          # assembled
//   openscad -o exploded.png -D explode=1 hardware/board.scad             # exploded
//   (headless: xvfb-run -a openscad ...)
//
// From the bottom: the base board (6 mm plywood); its walls (6 mm plywood) and the M3
// standoffs that hold the top plate at its height; the cable channel along the middle line
// between the rows, where every collar's wires come down; the load cells, each on its
// fixed-end spacer (and a pit's riser), a spacer on its free end; the cups on them; the top
// plate (3 mm acrylic, in parts joined by dovetails); the collars on the plate, each with its
// LED arc (12 round a pit, 16 round a store) behind a translucent wall; the buttons; a few
// seeds in each pit.

include <board-params.scad>
use <cup.scad>

explode = 0;            // 0 assembled, 1 exploded
section = false;        // true: cut away everything south of South's row's centres
seeds_shown = 4;        // seeds drawn in each pit
$fn = 64;

lift_cells = 70 * explode;
lift_cups = 150 * explode;
lift_plate = 230 * explode;
lift_collars = 290 * explode;

places = concat(pit_centres, store_centres);
function kind(p) = p < 2 * pits ? "pit" : "store";
function by(kind, pit_value, store_value) = kind == "pit" ? pit_value : store_value;
// how far the exploded view moves the plate's part that holds x
function spread(x) = (len([for (s = seams) if (s < x) s]) - (len(plate_parts) - 1) / 2)
    * 40 * explode;

module rounded(w, d, r = 10) {
    hull() for (x = [r, w - r], y = [r, d - r]) translate([x, y]) circle(r = r);
}

module base_and_walls() {
    color("BurlyWood") translate([0, 0, -base]) linear_extrude(base) rounded(board_w, board_d);
    color("Tan") linear_extrude(plate_bottom)
        difference() { rounded(board_w, board_d); offset(delta = -6) rounded(board_w, board_d); }
    color("Gold") for (h = holes) translate([h[0], h[1], 0])
        cylinder(d = standoff_d * 1.15, h = plate_bottom, $fn = 6);
    // the cable channel: a printed U along the middle line, 16 wide, 10 high
    color("DimGray") translate([store_centres[1][0], middle_y - 8, 0])
        difference() {
            cube([store_centres[0][0] - store_centres[1][0], 16, 10]);
            translate([-1, 2, 2]) cube([store_centres[0][0] - store_centres[1][0] + 2, 12, 9]);
        }
}

module cell(p) {
    k = kind(p);
    length = by(k, pit_cell_length, store_cell_length);
    cup_at = by(k, pit_cell_cup, store_cell_cup);
    pad = by(k, pit_cell_pad, store_cell_pad);
    bottom = by(k, pit_bar_bottom, store_bar_bottom);
    if (length > 0)
        translate([places[p][0], places[p][1], lift_cells]) rotate(cell_dirs[p]) {
            // x along the bar from the cup towards the fixed end
            color("Silver") translate([-cup_at, -bar_w / 2, bottom]) cube([length, bar_w, bar]);
            color("Peru") {
                translate([length - cup_at - pad, -bar_w / 2, 0]) cube([pad, bar_w, bottom]);
                translate([-cup_at, -bar_w / 2, bottom + bar]) cube([pad, bar_w, spacer]);
            }
        }
}

module cups() {
    for (p = [0:len(places) - 1]) {
        k = kind(p);
        translate([places[p][0], places[p][1],
                   by(k, pit_foot_bottom, store_foot_bottom) + lift_cups]) {
            color("WhiteSmoke") cup(k);
            if (k == "pit")
                color("LightSteelBlue")
                    for (a = [0:360 / seeds_shown:359])
                        translate([11 * cos(a + 45), 11 * sin(a + 45),
                                   pit_foot_h + seed_d / 2])
                            sphere(d = seed_d, $fn = 24);
        }
    }
}

module plate_part(k) {
    color("SaddleBrown") translate([0, 0, plate_bottom + lift_plate])
        linear_extrude(plate)
            difference() {
                polygon(plate_parts[k]);
                for (p = [0:len(places) - 1]) translate(places[p]) {
                    circle(d = by(kind(p), pit_hole_d, store_hole_d));
                    rotate(wire_dirs[p]) translate([by(kind(p), pit_wire_r, store_wire_r), 0])
                        circle(d = 5);
                }
                for (h = holes) translate(h) circle(d = hole_d);
                for (b = buttons) translate(b) square(button_hole, center = true);
            }
}

module collar(p) {
    k = kind(p);
    inner = by(k, pit_collar_inner_d, store_collar_inner_d) / 2;
    spigot = by(k, pit_spigot_d, store_spigot_d) / 2;
    outer = by(k, pit_collar_outer_d, store_collar_outer_d) / 2;
    back = by(k, pit_arc_back_d, store_arc_back_d) / 2;
    arc = by(k, pit_arc_d, store_arc_d) / 2;
    leds = by(k, pit_leds, store_leds);
    south = p < pits || p == 2 * pits;
    translate([places[p][0], places[p][1], lift_collars]) {
        color("White", 0.85) rotate_extrude($fn = 96) polygon([
            [inner, plate_bottom], [spigot, plate_bottom], [spigot, bezel_top - 1.5],
            [back, bezel_top - 1.5], [back, plate_top], [outer, plate_top],
            [outer, bezel_top], [inner, bezel_top]]);
        // the LED arc: the strip's PCB and its LEDs facing the centre
        color("Black") translate([0, 0, plate_top + 0.5])
            difference() {
                cylinder(r = arc + 0.15, h = strip_width, $fn = 96);
                translate([0, 0, -1]) cylinder(r = arc - 0.15, h = strip_width + 2, $fn = 96);
            }
        color(south ? "DeepSkyBlue" : "Orange")
            for (i = [0:leds - 1]) rotate(360 * (i + 0.5) / leds)
                translate([arc - 0.15 - led_h, -2.5, plate_top + 0.5 + strip_width / 2 - 2.5])
                    cube([led_h, 5, 5]);
    }
}

module board() {
    base_and_walls();
    for (p = [0:len(places) - 1]) cell(p);
    cups();
    for (k = [0:len(plate_parts) - 1])
        translate([(k - (len(plate_parts) - 1) / 2) * 40 * explode, 0, 0]) plate_part(k);
    for (p = [0:len(places) - 1]) collar(p);
    color("Black") for (b = buttons)
        translate([b[0] - 6 + spread(b[0]), b[1] - 6, plate_top + lift_plate]) cube([12, 12, 4]);
}

if (section)
    difference() {
        board();
        translate([-50, -50, -50]) cube([board_w + 100, pit_centres[0][1] + 50, 500]);
    }
else
    board();

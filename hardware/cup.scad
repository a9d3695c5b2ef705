// Layli board: the cup of a pit, parametric (OpenSCAD). All sizes in mm.
//
// The cup stands on its load cell's free end (on a 6 mm spacer) and rises through the hole of
// the pit's LED ring in the top plate, 1.5 mm clear all round: it must never touch the plate,
// or the plate carries part of the seeds' weight. Its foot, under the plate, is wider than the
// cup and has two pockets underneath for the heads of the two screws that hold the spacer to
// the cell; one M3 x 10 screw through the middle of the floor holds the cup to the spacer.
// `layli hardware drawing PROFILE --part mount` draws it in place.
//
// Assumed seeds: about 7 mm across (glass beads, small pebbles, dried peas), heaped loosely:
// in a tube only 2.5 seeds wide they fill about half of it (packing 0.5). For 20 seeds that is
// 20 x 180 mm3 / 0.5 = 7.2 cm3; 17.6 mm across inside, the cup is 30 mm deep: 7.3 cm3.
//
//   openscad -o cup.stl hardware/cup.scad                        # the pit cup (12-LED ring)
//   openscad -o store-cup.stl -D ring_id=31.75 -D depth=30 -D pockets=0 -D screw_d=5.5 \
//       hardware/cup.scad                                        # a store's (16-LED ring, M5)
//
// Print in PETG or PLA, 0.2 mm layers, floor down, no supports (the pockets bridge 8 mm).

ring_id = 23;          // the LED ring's inner diameter: Adafruit 1643, 23 mm
clearance = 1.5;       // all round, between the cup and the ring's hole
wall = 1.2;            // three 0.4 mm perimeters
seeds = 20;            // what the cup must hold
seed_d = 7;            // the seeds assumed (mm across)
packing = 0.5;         // of a loose heap of them in the cup
foot_h = 5;            // the foot: under the plate
foot_over = 10;        // the foot is this much wider than the cup
pockets = 2;           // screw heads under the foot: 2 (the 1 kg cell's free end) or 0
pocket_spacing = 15;   // between the cell's two free-end holes
pocket_d = 8;          // an M4 pan head (7 mm) and room
pocket_h = 3;          // its height (2.8 mm) and room
screw_d = 3.4;         // the screw through the floor's middle: M3 clearance (5.5 for M5)
$fn = 96;

outer_d = ring_id - 2 * clearance;
inner_d = outer_d - 2 * wall;
foot_d = outer_d + foot_over;
need = seeds * PI / 6 * pow(seed_d, 3) / packing;          // mm3 the seeds need
depth = ceil(need / (PI * pow(inner_d / 2, 2)));           // whole mm, inside
volume = PI * pow(inner_d / 2, 2) * depth;

echo(outer_d = outer_d, inner_d = inner_d, depth = depth, height = foot_h + depth,
     volume_cm3 = volume / 1000, seeds_held = floor(volume * packing / (PI / 6 * pow(seed_d, 3))));
assert(outer_d > 0 && inner_d > 0, "the ring's hole is too small for a cup");
assert(foot_h > pocket_h + 1, "the foot must be thicker than the pockets");

difference() {
    union() {
        cylinder(d = foot_d, h = foot_h);
        cylinder(d = outer_d, h = foot_h + depth);
    }
    translate([0, 0, foot_h]) cylinder(d = inner_d, h = depth + 1);      // the pit
    translate([0, 0, -1]) cylinder(d = screw_d, h = foot_h + 2);          // the middle screw
    if (pockets == 2)
        for (x = [-pocket_spacing / 2, pocket_spacing / 2])
            translate([x, 0, -1]) cylinder(d = pocket_d, h = pocket_h + 1);
}

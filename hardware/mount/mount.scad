// rummyref camera mount, parametric (OpenSCAD 2021+). All sizes in millimetres.
//
// Two ways to hold the camera over the middle of the table:
//  * table edge: `clamp` on the table edge holds a vertical tube; `elbow` joins it to a
//    horizontal boom tube; `boom_end` at the far end carries the camera on a tilt hinge.
//    Tubes are bought, not printed (aluminium or wooden dowel, `tube_d` across).
//  * stand: `tripod_adapter` screws onto a tripod, boom arm or overhead stand (1/4"-20 thread)
//    and carries the same tilt hinge.
// `camera_plate` holds a Raspberry Pi Camera Module 3 (or 3 Wide) by its four M2 holes
// (21 x 12.5 mm pattern), lens facing down, and hangs from the hinge on an M3 bolt.
// Mount height and reach for a table: python -m hardware.fov (see hardware/README.md).
//
// Render one part:  openscad -D 'part="clamp"' -o clamp.stl mount.scad

part = "assembly"; // [assembly, clamp, elbow, boom_end, tripod_adapter, camera_plate]

/* [Tubes] */
tube_d = 20;          // outer diameter of the pole and boom tubes
tube_clearance = 0.4; // play between tube and socket
socket_depth = 40;    // how far a tube goes into a socket
wall = 4;             // wall around sockets

/* [Table clamp] */
table_max = 40;       // thickest table top the clamp opens to
clamp_reach = 45;     // how far the jaws reach over the table edge
clamp_width = 40;     // width of the clamp along the table edge
screw_d = 8.5;        // clamping screw: M8 through a hex nut trap
screw_nut_af = 13.2;  // M8 nut across flats, plus play
screw_nut_h = 6.8;

/* [Hinge] */
hinge_bolt_d = 3.4;   // M3 bolt with a nut, tightened to hold the tilt
hinge_tab = 5;        // tab thickness on the camera plate
hinge_r = 7;          // outer radius around the bolt

/* [Camera Module 3] */
board = [25, 24];              // board outline
hole_pitch = [21, 12.5];       // M2 mounting hole pattern
hole_offset_y = 2;             // centre of the first hole row from the board's cable-free edge
camera_screw_d = 1.8;          // M2 screws cut their own thread in the standoffs
standoff_h = 4;                // clears the parts on the back of the board
plate_t = 3;

/* [Tripod] */
tripod_nut_af = 11.3;  // 1/4"-20 hex nut across flats, plus play
tripod_nut_h = 5.8;
tripod_bolt_d = 6.6;

$fn = 64;
socket_d = tube_d + tube_clearance;
socket_od = socket_d + 2 * wall;

// A tube socket along +z from the origin: solid body, and the bore plus a set screw hole (M4
// into a nut trap) to lock the tube. Parts that join other solids to a socket subtract the bore
// after the union, so that nothing fills it.
module socket_body(depth = socket_depth) { cylinder(d = socket_od, h = depth); }

module socket_bore(depth = socket_depth) {
    translate([0, 0, wall]) cylinder(d = socket_d, h = depth);
    translate([0, 0, depth / 2]) rotate([0, 90, 0]) {
        cylinder(d = 4.4, h = socket_od);
        translate([0, 0, socket_d / 2 + 0.5]) cylinder(d = 8.1, h = 3.4, $fn = 6);
    }
}

module tube_socket(depth = socket_depth) { difference() { socket_body(depth); socket_bore(depth); } }

module hex_trap(af, h) { cylinder(d = af / cos(30), h = h, $fn = 6); }

// Two prongs with a bolt hole across x, for the camera plate's tab; hangs down from z = 0.
module hinge_fork() {
    gap = hinge_tab + 0.4;
    for (side = [-1, 1])
        translate([side * (gap / 2 + 2), 0, 0])
            difference() {
                hull() {
                    translate([-2, -hinge_r, 0]) cube([4, 2 * hinge_r, 1]);
                    translate([0, 0, -hinge_r - 6]) rotate([0, 90, 0]) cylinder(r = hinge_r, h = 4, center = true);
                }
                translate([0, 0, -hinge_r - 6]) rotate([0, 90, 0]) cylinder(d = hinge_bolt_d, h = 10, center = true);
            }
    translate([-(gap / 2 + 4), -hinge_r, 0]) cube([gap + 8, 2 * hinge_r, wall]);
}

module clamp() {
    jaw = table_max + 2 * wall;
    pole = [-socket_od / 2, clamp_width / 2, jaw - wall]; // pole socket, outside the table edge
    difference() {
        union() {
            // C-frame: top jaw over the table, back spine, bottom jaw with the screw.
            translate([0, 0, jaw - wall]) cube([clamp_reach + wall, clamp_width, wall]);
            cube([wall + 2, clamp_width, jaw]);
            cube([clamp_reach + wall, clamp_width, wall + 2]);
            translate([clamp_reach - 10, clamp_width / 2, 0])
                cylinder(d = screw_nut_af + 2 * wall, h = wall + screw_nut_h + 2);
            translate(pole) socket_body();
            // Web joining the socket to the spine down to the bottom jaw.
            translate([pole[0], clamp_width / 2 - socket_od / 2 + 2, 0]) cube([-pole[0] + wall, socket_od - 4, jaw]);
        }
        translate(pole) socket_bore();
        translate([clamp_reach - 10, clamp_width / 2, -1]) {
            cylinder(d = screw_d, h = 50);
            translate([0, 0, wall + 2]) hex_trap(screw_nut_af, screw_nut_h + 1);
        }
    }
}

module elbow() {
    // Vertical socket open downwards (the pole goes up into it) joined to a horizontal socket
    // open towards +x (the boom), through a solid corner block.
    vertical = [0, 0, socket_depth];
    horizontal = [socket_od / 2 - wall, 0, socket_depth - socket_od / 2];
    difference() {
        union() {
            translate(vertical) rotate([180, 0, 0]) socket_body();
            translate(horizontal) rotate([0, 90, 0]) socket_body();
            translate([-socket_od / 2, -socket_od / 2, socket_depth - socket_od]) cube(socket_od);
        }
        translate(vertical) rotate([180, 0, 0]) socket_bore();
        translate(horizontal) rotate([0, 90, 0]) socket_bore();
    }
}

module boom_end() {
    // The boom tube slides in along x; the hinge fork hangs below.
    rotate([0, -90, 0]) tube_socket();
    translate([-socket_depth / 2, 0, -socket_od / 2 + 0.01]) hinge_fork();
}

module tripod_adapter() {
    // The stand's 1/4"-20 screw comes in from the top into a captive nut; the camera hangs below.
    block = 16;
    difference() {
        translate([-15, -15, 0]) cube([30, 30, block]);
        translate([0, 0, -1]) cylinder(d = tripod_bolt_d, h = block + 2);
        translate([0, 0, block - tripod_nut_h - 3]) {
            hex_trap(tripod_nut_af, tripod_nut_h);
            // Slot to push the nut in from the side.
            translate([0, -tripod_nut_af / 2, 0]) cube([20, tripod_nut_af, tripod_nut_h]);
        }
    }
    hinge_fork();
}

module camera_plate() {
    plate = [board[0] + 6, board[1] + 4];
    difference() {
        union() {
            translate([-plate[0] / 2, -plate[1] / 2, 0]) cube([plate[0], plate[1], plate_t]);
            for (x = [-1, 1], y = [0, 1])
                translate([x * hole_pitch[0] / 2, -board[1] / 2 + hole_offset_y + y * hole_pitch[1], 0])
                    cylinder(d = 5, h = plate_t + standoff_h);
            // Hinge tab on the back, across the plate's middle.
            translate([-hinge_tab / 2, 0, 0]) hull() {
                translate([0, -hinge_r, 0]) cube([hinge_tab, 2 * hinge_r, 1]);
                translate([0, 0, -hinge_r - 4]) rotate([0, 90, 0]) cylinder(r = hinge_r, h = hinge_tab);
            }
        }
        for (x = [-1, 1], y = [0, 1])
            translate([x * hole_pitch[0] / 2, -board[1] / 2 + hole_offset_y + y * hole_pitch[1], -1])
                cylinder(d = camera_screw_d, h = plate_t + standoff_h + 2);
        translate([-hinge_tab, 0, -hinge_r - 4]) rotate([0, 90, 0]) cylinder(d = hinge_bolt_d, h = 3 * hinge_tab);
        // Window for the ribbon cable connector on the board's back.
        translate([-9, board[1] / 2 - 8, -1]) cube([18, 10, plate_t + 2]);
    }
}

// The camera board on its standoffs, lens pointing away from the plate (assembly view only).
module camera_board() {
    color("darkgreen") translate([-board[0] / 2, -board[1] / 2, 0]) cube([board[0], board[1], 1]);
    color("black") translate([0, -board[1] / 2 + hole_offset_y + hole_pitch[1], 1]) cylinder(d = 8, h = 5);
}

module tube(length) { color("silver", 0.8) cylinder(d = tube_d, h = length); }

module assembly() {
    jaw = table_max + 2 * wall;
    pole = 160; // shortened: the real pole is about the mount height from python -m hardware.fov
    boom = 160; // shortened: the real boom reaches the table's middle
    y = clamp_width / 2;
    color("burlywood") translate([wall + 2, -60, wall + 2]) cube([220, 160, 30]); // table top
    color("orange") clamp();
    pole_x = -socket_od / 2;
    translate([pole_x, y, jaw]) tube(pole);
    elbow_z = jaw + pole - (socket_depth - wall); // the pole reaches the elbow's inner ceiling
    color("orange") translate([pole_x, y, elbow_z]) elbow();
    boom_z = elbow_z + socket_depth - socket_od / 2;
    boom_x = pole_x + socket_od / 2;
    translate([boom_x, y, boom_z]) rotate([0, 90, 0]) tube(boom);
    translate([boom_x + boom + wall, y, boom_z]) {
        color("orange") boom_end();
        pivot = [-socket_depth / 2, 0, -socket_od / 2 - hinge_r - 6];
        // The plate turned over, its tab's bolt hole on the fork's bolt: the lens looks down.
        translate(pivot - [0, 0, hinge_r + 4]) rotate([180, 0, 0]) {
            color("deepskyblue") camera_plate();
            translate([0, 0, plate_t + standoff_h]) camera_board();
        }
    }
}

if (part == "clamp") clamp();
else if (part == "elbow") elbow();
else if (part == "boom_end") boom_end();
else if (part == "tripod_adapter") tripod_adapter();
else if (part == "camera_plate") camera_plate();
else if (part == "assembly") assembly();
else assert(false, str("unknown part \"", part, "\"; use assembly, clamp, elbow, boom_end, tripod_adapter or camera_plate"));

-- Haste: for the user's next turn their pawns may also dash two squares
-- diagonally forward. The dash is plain data the kernel's move generator
-- compiles: the pawns' forward diagonal steps, with a reach of two squares.
function play(ctx)
  ctx:add_effect{ lasts = 1, moves = { pawns = { steps = "forward_diagonals", reach = 2 } } }
end

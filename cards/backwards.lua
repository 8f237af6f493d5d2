-- Backwards (a nightmare card): for the user's next two turns, their pawns may
-- also step diagonally backward. The effect is plain data the kernel's move
-- generator reads; it ends by itself after the two turns.
function play(ctx)
  ctx:add_effect{ lasts = 2, moves = { pawns_step_back = true } }
end

-- Warp drive: for the user's next two turns their kings fly. Plain data the
-- kernel compiles: kings' moves with flying set.
function play(ctx)
  ctx:add_effect{ lasts = 2, moves = { kings = { flying = true } } }
end
